//! `sesstree humanize-title`: FORMAT §10.3.

use insta::assert_snapshot;

use crate::common::TestEnv;

#[test]
fn arguments_and_stdin() {
    let env = TestEnv::new();
    assert_snapshot!(env.run(&["humanize-title", "migrate-mcp-loader", "fix_session_naming", "foo--bar__baz", "RefactorRouter", "", "---"]), @"
    Migrate mcp loader
    Fix session naming
    Foo bar baz
    RefactorRouter
    ");
    // Empty results are empty lines (insta trims them from the snapshot, so check the bytes).
    let out =
        env.cmd().args(["humanize-title", "RefactorRouter", "", "---", "x"]).output().unwrap();
    assert_eq!(out.stdout, b"RefactorRouter\n\n\nX\n");
    assert_snapshot!(env.run_stdin(&["humanize-title"], "my-feature-plan\nmy_plan\n"), @"
    My feature plan
    My plan
    ");
}
