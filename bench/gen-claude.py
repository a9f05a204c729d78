#!/usr/bin/env python3
"""Generate a large, realistic Claude Code transcript (JSONL records linked by uuid/parentUuid),
deterministically, for timing sesstree's reading of other agents' files.

    gen-claude.py -n 100000 --seed 7 -o /tmp/claude100k.jsonl

Shape: Claude Code 2.1's records. A conversation of turns: a user prompt, then assistant records
(one per content block: thinking, text, tool_use) and a user record per tool_result, with a
`system` turn_duration record ending each turn. Sprinkled in: rewinds and edit-and-resend (the next
prompt hangs from an earlier turn end; the old branch stays in the file), compactions (a
`compact_boundary` with parentUuid null and logicalParentUuid, then an isCompactSummary user
record), Task subagents as sidechains, isMeta records, file-history-snapshot records, and at the
end `last-prompt`, `ai-title` and `custom-title` records without uuid.

Exactly N records are written. Same arguments => byte-identical output. --scale multiplies every
text size (1.0: tool outputs ~0.2-12 KB, mean ~3 KB). A summary goes to stderr.
"""
import argparse
import datetime as dt
import json
import random
import sys
import uuid as uuidlib

WORDS = (
    "the a to of and in that is for it on with as this be are by not or from at which but have we you "
    "function module handler request response cache session entry parent child branch tree leaf root "
    "config build test tests failing passing error warning type interface struct trait impl async await "
    "file path directory import export const let return value string number array map set index key id "
    "parse serialize json yaml toml bytes chars render layout should could will can check verify add fix"
).split()
TOOLS = ["Read", "Bash", "Edit", "Grep", "Glob", "Write"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=100000, help="records to write")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("-o", "--output", default="-")
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    session = str(uuidlib.UUID(int=rnd.getrandbits(128), version=4))
    cwd = "/home/ana/src/tally"
    t0 = dt.datetime(2026, 3, 1, 9, 0, 0, tzinfo=dt.timezone.utc)
    clock = [0]

    def words(n):
        return " ".join(rnd.choice(WORDS) for _ in range(max(1, int(n * args.scale))))

    def new_uuid():
        return str(uuidlib.UUID(int=rnd.getrandbits(128), version=4))

    def stamp():
        clock[0] += rnd.randint(200, 4000)
        t = t0 + dt.timedelta(milliseconds=clock[0])
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)

    out = sys.stdout if args.output == "-" else open(args.output, "w")
    written = [0]
    counts = {}

    def emit(rec):
        if written[0] >= args.n - 3:
            return False
        out.write(json.dumps(rec, separators=(",", ":")) + "\n")
        written[0] += 1
        key = rec["type"] + ("/" + rec["subtype"] if "subtype" in rec else "")
        counts[key] = counts.get(key, 0) + 1
        return True

    def base(kind, parent, sidechain=False, **kw):
        rec = {"parentUuid": parent, "isSidechain": sidechain, "userType": "external", "cwd": cwd,
               "sessionId": session, "version": "2.1.5", "gitBranch": "main", "type": kind,
               "uuid": new_uuid(), "timestamp": stamp()}
        rec.update(kw)
        return rec

    def user(parent, content, **kw):
        return base("user", parent, message={"role": "user", "content": content}, **kw)

    def assistant(parent, block, stop, sidechain=False):
        mid = "msg_" + new_uuid().replace("-", "")[:24]
        return base("assistant", parent, sidechain, requestId="req_" + mid[4:],
                    message={"id": mid, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                             "content": [block], "stop_reason": stop, "stop_sequence": None,
                             "usage": {"input_tokens": rnd.randint(5, 500), "cache_creation_input_tokens": rnd.randint(0, 2000),
                                       "cache_read_input_tokens": rnd.randint(1000, 90000), "output_tokens": rnd.randint(20, 900)}})

    turn_ends = []
    leaf = None
    turn = 0
    while written[0] < args.n - 7:
        turn += 1
        parent = leaf
        if turn_ends and rnd.random() < 0.03:
            parent = rnd.choice(turn_ends[-8:])  # a rewind or an edit-and-resend
        if turn % 120 == 0 and leaf:
            boundary = base("system", None, subtype="compact_boundary", content="Conversation compacted",
                            isMeta=False, level="info", logicalParentUuid=leaf,
                            compactMetadata={"trigger": "auto", "preTokens": rnd.randint(100000, 180000)})
            emit(boundary)
            summary = user(boundary["uuid"], "This session is being continued from a previous conversation. " + words(300),
                           isCompactSummary=True, isVisibleInTranscriptOnly=True)
            emit(summary)
            parent = summary["uuid"]
        if rnd.random() < 0.05:
            meta = user(parent, "<command-name>/clear</command-name> " + words(10), isMeta=True)
            emit(meta)
            parent = meta["uuid"]
        prompt = user(parent, words(rnd.randint(10, 80)))
        emit(prompt)
        emit({"type": "file-history-snapshot", "messageId": prompt["uuid"],
              "snapshot": {"messageId": prompt["uuid"], "trackedFileBackups": {}, "timestamp": prompt["timestamp"]},
              "isSnapshotUpdate": False})
        at = prompt["uuid"]
        for _ in range(rnd.randint(1, 6)):
            rec = assistant(at, {"type": "thinking", "thinking": words(rnd.randint(20, 200)), "signature": "sig" + words(5)}, None)
            emit(rec)
            at = rec["uuid"]
            tool = rnd.choice(TOOLS)
            call = "toolu_" + new_uuid().replace("-", "")[:24]
            rec = assistant(at, {"type": "tool_use", "id": call, "name": tool, "input": {"file_path": "src/" + rnd.choice(WORDS) + ".rs", "command": words(8)}}, "tool_use")
            emit(rec)
            at = rec["uuid"]
            if tool == "Grep" and rnd.random() < 0.3:
                side = None
                for _ in range(rnd.randint(2, 6)):
                    s = user(side, words(30), isSidechain=True, agentId="a" + str(turn)) if side is None else assistant(side, {"type": "text", "text": words(60)}, "end_turn", True)
                    emit(s)
                    side = s["uuid"]
            size = int(rnd.lognormvariate(7.5, 1.0))
            result = user(at, [{"type": "tool_result", "tool_use_id": call, "content": words(max(10, size // 6))}],
                          toolUseResult={"type": "text"})
            emit(result)
            at = result["uuid"]
        rec = assistant(at, {"type": "text", "text": words(rnd.randint(20, 300))}, "end_turn")
        emit(rec)
        at = rec["uuid"]
        emit(base("system", at, subtype="turn_duration", durationMs=rnd.randint(1000, 90000), isMeta=False))
        turn_ends.append(at)
        leaf = at
    for rec in [{"type": "last-prompt", "lastPrompt": "continue", "leafUuid": leaf, "sessionId": session},
                {"type": "ai-title", "aiTitle": "Tally JSON output", "sessionId": session},
                {"type": "custom-title", "customTitle": "tally --json", "sessionId": session}]:
        out.write(json.dumps(rec, separators=(",", ":")) + "\n")
        written[0] += 1
        counts[rec["type"]] = counts.get(rec["type"], 0) + 1
    if out is not sys.stdout:
        out.close()
    print(json.dumps({"records": written[0], "turns": turn, "counts": counts}), file=sys.stderr)


if __name__ == "__main__":
    main()
