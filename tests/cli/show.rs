//! `sesstree show`: one entry, pretty, raw, JSON.

use insta::assert_snapshot;

use crate::common::TestEnv;

#[test]
fn pretty_keeps_key_order() {
    let env = TestEnv::new();
    env.fixture("linear.jsonl");
    assert_snapshot!(env.run(&["-f", "linear.jsonl", "show", "@^"]), @r#"
    {
      "type": "message",
      "id": "0a4b7e2d",
      "parentId": "f6c3d098",
      "timestamp": "2026-03-02T09:01:05.870Z",
      "message": {
        "role": "toolResult",
        "toolCallId": "call_Tn7bW2cLs4",
        "toolName": "read",
        "content": [
          {
            "type": "text",
            "text": "fn main() {\n    let args: Vec<String> = std::env::args().skip(1).collect();\n    proj::run(&args);\n}\n"
          }
        ],
        "isError": false,
        "timestamp": 1772442065869
      }
    }
    "#);
}

#[test]
fn raw_is_the_line() {
    let env = TestEnv::new();
    let path = env.fixture("linear.jsonl");
    let out = env.cmd().args(["-f", "linear.jsonl", "show", "--raw", "@"]).output().unwrap();
    let text = std::fs::read(path).unwrap();
    let last = text.split(|&b| b == b'\n').rfind(|l| !l.is_empty()).unwrap();
    assert_eq!(out.stdout, [last, b"\n"].concat());
}

#[test]
fn unknown_types_survive() {
    let env = TestEnv::new();
    env.fixture("all-types.jsonl");
    assert_snapshot!(env.run(&["-f", "all-types.jsonl", "--json", "show", "cadbecfd"]), @r#"{"schema":2,"type":"future_thing","id":"cadbecfd","parentId":"b9cadbec","timestamp":"2026-03-10T09:12:00.000Z","payload":{"z":1,"a":[true,null,1.5e+3]},"note":"spaced, escaped café and / kept as written"}"#);
}
