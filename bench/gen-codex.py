#!/usr/bin/env python3
"""Generate a large, realistic Codex rollout (JSONL lines `{timestamp, type, payload}`),
deterministically, for timing sesstree's reading of other agents' files.

    gen-codex.py -n 100000 --seed 7 -o /tmp/codex100k.jsonl

Shape: codex-cli 0.46's rollout lines. `session_meta` first, then turns: a `turn_context`, the
user's message as a `response_item` and the `user_message` event that repeats it, then rounds
of reasoning (a `reasoning` item and its `agent_reasoning` event), a `function_call` (`shell`,
arguments as a JSON string) and its `function_call_output`, a `token_count` event, and the
answer as an assistant `message` with its `agent_message` event. Sprinkled in: a model switch in
`turn_context`, MCP calls (`mcp_tool_call_end`), rollbacks (`thread_rolled_back` of one or two
turns), compactions (`compacted` with a summary and a replacement history) and a
`thread_name_updated`.

Exactly N lines are written. Same arguments => byte-identical output. --scale multiplies every
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
MODELS = ["gpt-5-codex", "gpt-5.1-codex"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=100000, help="lines to write")
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

    def stamp():
        clock[0] += rnd.randint(200, 4000)
        t = t0 + dt.timedelta(milliseconds=clock[0])
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)

    out = sys.stdout if args.output == "-" else open(args.output, "w")
    written = [0]
    counts = {}

    def emit(kind, payload):
        if written[0] >= args.n:
            return False
        out.write(json.dumps({"timestamp": stamp(), "type": kind, "payload": payload},
                             separators=(",", ":")) + "\n")
        written[0] += 1
        key = kind + "/" + payload.get("type", "")
        counts[key] = counts.get(key, 0) + 1
        return True

    def call_id():
        return "call_" + uuidlib.UUID(int=rnd.getrandbits(128), version=4).hex[:24]

    emit("session_meta", {"id": session, "timestamp": stamp(), "cwd": cwd, "originator": "codex_cli_rs",
                          "cli_version": "0.46.0", "instructions": None, "source": "cli",
                          "model_provider": "openai"})
    model = MODELS[0]
    turn = 0
    while written[0] < args.n:
        turn += 1
        if rnd.random() < 0.02:
            model = rnd.choice(MODELS)
        emit("turn_context", {"cwd": cwd, "approval_policy": "on-request", "model": model,
                              "effort": "medium", "summary": "auto"})
        prompt = words(rnd.randint(10, 80))
        emit("response_item", {"type": "message", "role": "user",
                               "content": [{"type": "input_text", "text": prompt}]})
        emit("event_msg", {"type": "user_message", "message": prompt, "images": []})
        for _ in range(rnd.randint(1, 6)):
            thought = words(rnd.randint(20, 200))
            emit("response_item", {"type": "reasoning", "summary": [{"type": "summary_text", "text": thought}],
                                   "content": None, "encrypted_content": "gAAAA" + words(20).replace(" ", "")})
            emit("event_msg", {"type": "agent_reasoning", "text": thought})
            if rnd.random() < 0.1:
                call = call_id()
                emit("event_msg", {"type": "mcp_tool_call_end", "call_id": call,
                                   "invocation": {"server": "docs", "tool": "search", "arguments": {"query": words(4)}},
                                   "duration": {"secs": 0, "nanos": 5000000},
                                   "result": {"Ok": {"content": [{"type": "text", "text": words(80)}], "isError": False}}})
                continue
            call = call_id()
            command = ["bash", "-lc", words(6)]
            emit("response_item", {"type": "function_call", "name": "shell",
                                   "arguments": json.dumps({"command": command, "workdir": cwd}),
                                   "call_id": call})
            size = int(rnd.lognormvariate(7.5, 1.0))
            output = json.dumps({"output": words(max(10, size // 6)),
                                 "metadata": {"exit_code": rnd.choice([0, 0, 0, 1]), "duration_seconds": 0.2}})
            emit("response_item", {"type": "function_call_output", "call_id": call, "output": output})
            emit("event_msg", {"type": "token_count", "info": {"total_token_usage": {
                "input_tokens": rnd.randint(1000, 90000), "cached_input_tokens": rnd.randint(0, 80000),
                "output_tokens": rnd.randint(20, 900), "reasoning_output_tokens": rnd.randint(0, 500),
                "total_tokens": rnd.randint(1000, 100000)}}, "rate_limits": None})
        answer = words(rnd.randint(20, 300))
        emit("response_item", {"type": "message", "role": "assistant",
                               "content": [{"type": "output_text", "text": answer}]})
        emit("event_msg", {"type": "agent_message", "message": answer})
        if turn == 3:
            emit("event_msg", {"type": "thread_name_updated", "thread_name": "Tally JSON output"})
        if rnd.random() < 0.03:
            emit("event_msg", {"type": "thread_rolled_back", "num_turns": rnd.choice([1, 1, 2])})
        if turn % 120 == 0:
            history = [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": words(40)}]},
                       {"type": "compaction", "encrypted_content": "gAAAA" + words(30).replace(" ", "")}]
            emit("compacted", {"message": "Summary of the work so far: " + words(300),
                               "replacement_history": history})
    if out is not sys.stdout:
        out.close()
    print(json.dumps({"lines": written[0], "turns": turn, "counts": counts}), file=sys.stderr)


if __name__ == "__main__":
    main()
