//! The selector without a terminal: keys go to the state machine and the screen is drawn on
//! ratatui's `TestBackend`, then read back as text (and, where it matters, as styles).

use std::path::Path;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::{Color, Modifier};
use sesstree::row::text::FilterMode;
use sesstree::{EntryId, Session};

use super::SummaryRequest;
use super::draw::{Look, draw, rows_shown};
use super::model::Model;
use super::state::{Effect, Mode, Selector};

const FIXTURE: &str = include_str!("../../../tests/fixtures/selector.jsonl");
const COLOR: Look = Look { color: true, ascii: false };
const PLAIN: Look = Look { color: false, ascii: false };

fn session(text: &str) -> Session {
    Session::from_bytes(Path::new("selector.jsonl"), text.as_bytes().to_vec()).unwrap()
}

fn model(s: &Session, show_archived: bool) -> Model {
    Model::build(s, None, show_archived, true).unwrap()
}

fn selector(text: &str) -> Selector {
    Selector::new(model(&session(text), false), FilterMode::Default, String::new(), false)
}

/// The screen as text, trailing blanks trimmed, with the terminal's cursor position when set.
fn screen(s: &mut Selector, width: u16, height: u16, look: Look) -> String {
    s.page = rows_shown(s, &look, width, height);
    let mut term = Terminal::new(TestBackend::new(width, height)).unwrap();
    term.draw(|f| draw(f, s, &look)).unwrap();
    let buf = term.backend().buffer();
    let mut out = String::new();
    for y in 0..height {
        let mut line = String::new();
        for x in 0..width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn press(s: &mut Selector, code: KeyCode, modifiers: KeyModifiers) -> Effect {
    s.handle(KeyEvent::new(code, modifiers))
}

fn key(s: &mut Selector, code: KeyCode) -> Effect {
    press(s, code, KeyModifiers::NONE)
}

fn ctrl(s: &mut Selector, c: char) -> Effect {
    press(s, KeyCode::Char(c), KeyModifiers::CONTROL)
}

fn alt(s: &mut Selector, c: char) -> Effect {
    press(s, KeyCode::Char(c), KeyModifiers::ALT)
}

fn typed(s: &mut Selector, text: &str) {
    for c in text.chars() {
        let shift = if c.is_uppercase() { KeyModifiers::SHIFT } else { KeyModifiers::NONE };
        assert_eq!(press(s, KeyCode::Char(c), shift), Effect::None);
    }
}

/// The text of the selected row.
fn selected_text(s: &Selector) -> String {
    s.model.rows[s.selected().unwrap()].text.clone()
}

fn id(s: &str) -> EntryId {
    EntryId::new(s)
}

/// A session from short lines `ID PARENT SECOND TEXT` (user messages; PARENT `-` for none).
fn chat(lines: &[&str]) -> String {
    let mut text =
        vec![r#"{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}"#.to_string()];
    for l in lines {
        let mut parts = l.splitn(4, ' ');
        let (id, parent, sec, body) = (
            parts.next().unwrap(),
            parts.next().unwrap(),
            parts.next().unwrap(),
            parts.next().unwrap_or(""),
        );
        let parent = if parent == "-" { "null".into() } else { format!("\"{parent}\"") };
        text.push(format!(
            r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2026-01-01T00:00:{sec}.000Z","message":{{"role":"user","content":"{body}"}}}}"#
        ));
    }
    text.join("\n") + "\n"
}

#[test]
fn draws_the_tree_in_80_by_24() {
    let mut s = selector(FIXTURE);
    insta::assert_snapshot!(screen(&mut s, 80, 24, COLOR), @"
    Session tree · selector.jsonl
      • [start] user: Add a --json flag to the CLI
      • assistant: I will read the parser first.
      • [read: /work/src/cli.rs]
      • assistant: Done: the flag prints JSON lines.
      ├─ • user: Rather document the flag in the README
      │  • assistant: README updated with a JSON section.
      │  • user: Also add a changelog entry
    › │  • assistant: Changelog entry added. ← active
      └─ user: Now write the tests
         assistant: Tests written and passing.






      (8/10)

      ↑/↓ move · ←/→ PgUp/PgDn page · Home/End first/last
      Alt+↑/↓ prev/next message · Enter check out
      Shift+Enter (Alt+Enter) summarize and check out · Ctrl+L label · Ctrl+O filter
      Alt+D/T/U/L/A default/no-tools/user/labeled/all · Alt+R archived · Tab preview
      Ctrl+←/→ fold/unfold · type to search · Esc clear search/quit
    ");
}

#[test]
fn the_selected_row_is_bold_on_a_highlight_and_plain_without_colour() {
    let mut s = selector(FIXTURE);
    let row_y = 8; // the leaf's line in the screen above
    for (look, bg, reversed) in [(COLOR, Color::DarkGray, false), (PLAIN, Color::Reset, true)] {
        s.page = rows_shown(&s, &look, 80, 24);
        let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
        term.draw(|f| draw(f, &s, &look)).unwrap();
        let buf = term.backend().buffer();
        for x in [0, 40, 79] {
            let cell = &buf[(x, row_y)];
            assert_eq!(cell.bg, bg, "x={x}");
            assert!(cell.modifier.contains(Modifier::BOLD), "x={x}");
            assert_eq!(cell.modifier.contains(Modifier::REVERSED), reversed, "x={x}");
        }
        // Other rows are not highlighted, and without colour nothing is coloured at all.
        assert!(!buf[(40, row_y - 1)].modifier.contains(Modifier::BOLD));
        if !look.color {
            assert!(buf.content().iter().all(|c| c.fg == Color::Reset && c.bg == Color::Reset));
        }
    }
}

#[test]
fn filters_cycle_and_jump() {
    let mut s = selector(FIXTURE);
    let status = |s: &mut Selector| {
        let text = screen(s, 80, 24, PLAIN);
        text.lines().find(|l| l.starts_with("  (")).unwrap().to_string()
    };
    // The default filter is not named, as the agent names none.
    assert_eq!(status(&mut s), "  (8/10)");
    ctrl(&mut s, 'o');
    assert_eq!(s.filter, FilterMode::NoTools);
    insta::assert_snapshot!(screen(&mut s, 80, 24, PLAIN).lines().take(14).collect::<Vec<_>>().join("\n"), @"
    Session tree · selector.jsonl
      • [start] user: Add a --json flag to the CLI
      • assistant: I will read the parser first.
      • assistant: Done: the flag prints JSON lines.
      ├─ • user: Rather document the flag in the README
      │  • assistant: README updated with a JSON section.
      │  • user: Also add a changelog entry
    › │  • assistant: Changelog entry added. ← active
      └─ user: Now write the tests
         assistant: Tests written and passing.
    ");
    ctrl(&mut s, 'o');
    assert_eq!(status(&mut s), "  (3/4) [user]");
    // The leaf (an assistant message) is hidden: the selection went to its nearest visible
    // ancestor.
    assert_eq!(selected_text(&s), "user: Also add a changelog entry");
    ctrl(&mut s, 'o');
    assert_eq!(status(&mut s), "  (1/1) [labeled]");
    ctrl(&mut s, 'o');
    // The selection stays on the labelled entry; `all` shows the model change above it.
    assert_eq!(status(&mut s), "  (2/12) [all]");
    ctrl(&mut s, 'o');
    assert_eq!(s.filter, FilterMode::Default);
    // Shift+Ctrl+O (where the terminal reports it) and Alt+O go backwards.
    press(&mut s, KeyCode::Char('O'), KeyModifiers::CONTROL | KeyModifiers::SHIFT);
    assert_eq!(s.filter, FilterMode::All);
    alt(&mut s, 'o');
    assert_eq!(s.filter, FilterMode::LabeledOnly);
    for (c, mode) in [
        ('d', FilterMode::Default),
        ('t', FilterMode::NoTools),
        ('u', FilterMode::UserOnly),
        ('l', FilterMode::LabeledOnly),
        ('a', FilterMode::All),
    ] {
        alt(&mut s, c);
        assert_eq!(s.filter, mode);
    }
    let all = screen(&mut s, 80, 24, PLAIN);
    assert!(all.contains("  • [model: claude-x]\n"), "{all}");
    assert!(all.contains("│  • [label: start]\n"), "{all}");
}

#[test]
fn a_filter_that_hides_everything_says_so() {
    let mut s = selector(&chat(&["a - 01 hello", "b a 02 again"]));
    alt(&mut s, 'l');
    insta::assert_snapshot!(screen(&mut s, 80, 12, PLAIN), @"
    Session tree · selector.jsonl
      2 entries hidden by the current filter [labeled-only]
      Alt+A shows all, Alt+D the default


      (0/0) [labeled]

      ↑/↓ move · ←/→ PgUp/PgDn page · Home/End first/last
      Alt+↑/↓ prev/next message · Enter check out
      Shift+Enter (Alt+Enter) summarize and check out · Ctrl+L label · Ctrl+O filter
      Alt+D/T/U/L/A default/no-tools/user/labeled/all · Alt+R archived · Tab preview
      Ctrl+←/→ fold/unfold · type to search · Esc clear search/quit
    ");
    // Keys on an empty list do nothing harmful.
    for code in [KeyCode::Up, KeyCode::Down, KeyCode::PageDown, KeyCode::Home, KeyCode::End] {
        assert_eq!(key(&mut s, code), Effect::None);
    }
    assert_eq!(key(&mut s, KeyCode::Enter), Effect::None);
    alt(&mut s, 'd');
    assert_eq!(selected_text(&s), "user: again");
}

#[test]
fn typing_searches_with_every_word_fuzzy() {
    let mut s = selector(FIXTURE);
    typed(&mut s, "readme upd");
    insta::assert_snapshot!(screen(&mut s, 80, 24, PLAIN).lines().take(14).collect::<Vec<_>>().join("\n"), @"
    Session tree · selector.jsonl
    › │  • assistant: README updated with a JSON section.
    ");
    // Fuzzy: the letters in order, not necessarily together; every word must match.
    key(&mut s, KeyCode::Esc);
    typed(&mut s, "chlg");
    let found: Vec<String> = s.visible().iter().map(|&r| s.model.rows[r].text.clone()).collect();
    // "doCument tHe fLaG" matches as well as "CHangeLoG".
    assert_eq!(
        found,
        [
            "user: Rather document the flag in the README",
            "user: Also add a changelog entry",
            "assistant: Changelog entry added."
        ]
    );
    typed(&mut s, " zzz");
    insta::assert_snapshot!(screen(&mut s, 80, 24, PLAIN).lines().take(2).collect::<Vec<_>>().join("\n"), @r#"
    Session tree · selector.jsonl
      No entries match search "chlg zzz"
    "#);
    for _ in 0..4 {
        key(&mut s, KeyCode::Backspace);
    }
    assert_eq!(s.query, "chlg");
    assert_eq!(s.visible().len(), 3);
    // Labels are searched too.
    key(&mut s, KeyCode::Esc);
    typed(&mut s, "start");
    let found: Vec<&str> = s.visible().iter().map(|&r| s.model.rows[r].text.as_str()).collect();
    assert!(found.contains(&"user: Add a --json flag to the CLI"), "{found:?}");
    // Esc clears the search first, then closes.
    assert_eq!(key(&mut s, KeyCode::Esc), Effect::None);
    assert_eq!(s.query, "");
    assert_eq!(s.visible().len(), 10);
    assert_eq!(key(&mut s, KeyCode::Esc), Effect::Quit);
}

#[test]
fn moving_wraps_pages_and_jumps_between_messages() {
    let mut s = selector(FIXTURE);
    assert_eq!(s.cursor(), Some(7));
    key(&mut s, KeyCode::Home);
    assert_eq!(s.cursor(), Some(0));
    key(&mut s, KeyCode::Up);
    assert_eq!(s.cursor(), Some(9), "Up on the first row wraps to the last");
    key(&mut s, KeyCode::Down);
    assert_eq!(s.cursor(), Some(0), "Down on the last row wraps to the first");
    s.page = 3;
    key(&mut s, KeyCode::PageDown);
    assert_eq!(s.cursor(), Some(3));
    key(&mut s, KeyCode::Right);
    assert_eq!(s.cursor(), Some(6));
    key(&mut s, KeyCode::Right);
    key(&mut s, KeyCode::Right);
    assert_eq!(s.cursor(), Some(9), "paging stops at the end");
    key(&mut s, KeyCode::Left);
    key(&mut s, KeyCode::PageUp);
    assert_eq!(s.cursor(), Some(3));
    key(&mut s, KeyCode::End);
    assert_eq!(s.cursor(), Some(9));
    // Alt+Up/Down skip what is not a user or assistant message (the tool result here).
    key(&mut s, KeyCode::Home);
    press(&mut s, KeyCode::Down, KeyModifiers::ALT);
    press(&mut s, KeyCode::Down, KeyModifiers::ALT);
    assert_eq!(selected_text(&s), "assistant: Done: the flag prints JSON lines.");
    press(&mut s, KeyCode::Up, KeyModifiers::ALT);
    assert_eq!(selected_text(&s), "assistant: I will read the parser first.");
    key(&mut s, KeyCode::Home);
    press(&mut s, KeyCode::Up, KeyModifiers::ALT);
    assert_eq!(s.cursor(), Some(0), "no earlier message: stay");
}

#[test]
fn long_lists_scroll_to_keep_the_selection_in_view() {
    let lines: Vec<String> = (0..40)
        .map(|i| {
            format!(
                "e{i:02} {} {:02} row {i}",
                if i == 0 { "-".to_string() } else { format!("e{:02}", i - 1) },
                i % 60
            )
        })
        .collect();
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let mut s = selector(&chat(&refs));
    let text = screen(&mut s, 60, 12, PLAIN);
    // 12 lines tall: the 2 rows the title, status, message and key help leave, the leaf last.
    insta::assert_snapshot!(text, @"
    Session tree · selector.jsonl
      • user: row 38
    › • user: row 39 ← active
      (40/40)

      ↑/↓ move · ←/→ PgUp/PgDn page · Home/End first/last
      Alt+↑/↓ prev/next message · Enter check out
      Shift+Enter (Alt+Enter) summarize and check out
      Ctrl+L label · Ctrl+O filter
      Alt+D/T/U/L/A default/no-tools/user/labeled/all
      Alt+R archived · Tab preview · Ctrl+←/→ fold/unfold
      type to search · Esc clear search/quit
    ");
    key(&mut s, KeyCode::Home);
    for _ in 0..5 {
        key(&mut s, KeyCode::Down);
    }
    let text = screen(&mut s, 60, 16, PLAIN);
    assert!(
        text.contains("  • user: row 3\n  • user: row 4\n› • user: row 5\n  • user: row 6\n"),
        "{text}"
    );
}

/// A tree that branches at every level: `n0 → {n1, s0}`, `n1 → {n2, s1}`, …
fn deep(levels: usize) -> String {
    let mut lines = vec!["n0 - 00 top".to_string()];
    for i in 0..levels {
        lines.push(format!("s{i} n{i} {:02} side {i}", 2 * i + 1));
        lines.push(format!("n{} n{i} {:02} deeper {}", i + 1, 2 * i + 2, i + 1));
    }
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    chat(&refs)
}

#[test]
fn narrow_terminals_scroll_old_levels_off() {
    let mut s = selector(&deep(8));
    // 40 columns keep 24 for the content: 5 levels of gutter, the oldest shown as `…`.
    insta::assert_snapshot!(screen(&mut s, 40, 24, PLAIN), @"
    Session tree · selector.jsonl
      │  │  │  ├─ • user: deeper 4
      │  │  │  │  ├─ • user: deeper 5
      …  │  │  │  ├─ • user: deeper 6
      …  │  │  │  ├─ • user: deeper 7
    › …  │  │  │  ├─ • user: deepe… ← active
      …  │  │  │  └─ user: side 7
      …  │  │  │  └─ user: side 6
      …  │  │  │  └─ user: side 5
      │  │  │  │  └─ user: side 4
      (9/17)

      ↑/↓ move · ←/→ PgUp/PgDn page
      Home/End first/last
      Alt+↑/↓ prev/next message
      Enter check out
      Shift+Enter (Alt+Enter) summarize and
      check out · Ctrl+L label
      Ctrl+O filter
      Alt+D/T/U/L/A
      default/no-tools/user/labeled/all
      Alt+R archived · Tab preview
      Ctrl+←/→ fold/unfold · type to search
      Esc clear search/quit
    ");
}

#[test]
fn folding_hides_and_shows_branch_segments() {
    let mut s = selector(FIXTURE);
    // From inside a segment, Ctrl+Left first goes up to the segment's head…
    press(&mut s, KeyCode::Left, KeyModifiers::CONTROL);
    assert_eq!(selected_text(&s), "user: Rather document the flag in the README");
    // …then folds it.
    press(&mut s, KeyCode::Left, KeyModifiers::CONTROL);
    key(&mut s, KeyCode::Down);
    press(&mut s, KeyCode::Left, KeyModifiers::ALT);
    insta::assert_snapshot!(screen(&mut s, 80, 24, COLOR).lines().take(14).collect::<Vec<_>>().join("\n"), @"
    Session tree · selector.jsonl
      • [start] user: Add a --json flag to the CLI
      • assistant: I will read the parser first.
      • [read: /work/src/cli.rs]
      • assistant: Done: the flag prints JSON lines.
      ├⊞ • user: Rather document the flag in the README
    › └⊞ user: Now write the tests
    ");
    // A folded head goes up to the enclosing segment's head, which is the root here.
    press(&mut s, KeyCode::Left, KeyModifiers::CONTROL);
    assert_eq!(s.cursor(), Some(0));
    // Ctrl+Right from an unfolded row goes down to the next segment head under it…
    press(&mut s, KeyCode::Right, KeyModifiers::CONTROL);
    assert_eq!(selected_text(&s), "user: Rather document the flag in the README");
    // …and unfolds a folded one.
    press(&mut s, KeyCode::Right, KeyModifiers::CONTROL);
    assert_eq!(s.visible().len(), 9);
    // Folding the root hides everything under it, with a mark in front of the row.
    key(&mut s, KeyCode::Home);
    press(&mut s, KeyCode::Left, KeyModifiers::CONTROL);
    insta::assert_snapshot!(screen(&mut s, 80, 24, PLAIN).lines().take(3).collect::<Vec<_>>().join("\n"), @"
    Session tree · selector.jsonl
    › • [start] user: Add a --json flag to the CLI
      • assistant: I will read the parser first.
    ");
    let ascii = Look { color: false, ascii: true };
    insta::assert_snapshot!(screen(&mut s, 80, 24, ascii).lines().nth(1).unwrap(), @"> * [start] user: Add a --json flag to the CLI");
}

#[test]
fn ctrl_l_edits_the_label_in_place() {
    let mut s = selector(FIXTURE);
    key(&mut s, KeyCode::Home);
    assert_eq!(ctrl(&mut s, 'l'), Effect::None);
    assert_eq!(s.mode, Mode::Prompt { row: 1, input: "start".into(), label: true });
    let text = screen(&mut s, 80, 24, PLAIN);
    let status = text.lines().position(|l| l.starts_with("  (1/10)")).unwrap();
    insta::assert_snapshot!(text.lines().skip(status).take(3).collect::<Vec<_>>().join("\n"), @"
    (1/10)
    Label (empty to remove): start
    Enter save · Esc cancel · Ctrl+U clear
    ");
    // The terminal cursor sits after the pre-filled text.
    s.page = rows_shown(&s, &PLAIN, 80, 24);
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    term.draw(|f| draw(f, &s, &PLAIN)).unwrap();
    term.backend_mut().assert_cursor_position((32, 22));

    for _ in 0.."start".len() {
        key(&mut s, KeyCode::Backspace);
    }
    typed(&mut s, "  first try ");
    assert_eq!(
        key(&mut s, KeyCode::Enter),
        Effect::SetLabel { id: id("d0000001"), label: Some("first try".into()) }
    );
    assert_eq!(s.mode, Mode::Browse);

    // Empty (or blank) removes; Ctrl+U clears what was typed.
    ctrl(&mut s, 'l');
    ctrl(&mut s, 'u');
    typed(&mut s, "   ");
    assert_eq!(key(&mut s, KeyCode::Enter), Effect::SetLabel { id: id("d0000001"), label: None });

    // Esc cancels without an effect.
    ctrl(&mut s, 'l');
    typed(&mut s, "x");
    assert_eq!(key(&mut s, KeyCode::Esc), Effect::None);
    assert_eq!(s.mode, Mode::Browse);
    assert_eq!(s.query, "");

    // While a search is typed, Ctrl+L still labels and leaves the search as it is.
    typed(&mut s, "fl");
    ctrl(&mut s, 'l');
    assert!(matches!(s.mode, Mode::Prompt { label: true, .. }));
    assert_eq!(s.query, "fl");
}

/// See: issue 44 (a day with sesstree, second pass). The agent's Shift+L labelled while the
/// search was empty (pi 1.6.0 `app.tree.editLabel` = `shift+l`), so typing `Let` to find
/// "Let's not add…" and pressing Enter wrote the label `et`. Every printable key, capitals
/// included, types into the search.
#[test]
fn capital_letters_type_into_the_search() {
    let mut s = selector(FIXTURE);
    typed(&mut s, "Let");
    assert_eq!(s.mode, Mode::Browse);
    assert_eq!(s.query, "Let");
    let mut s = selector(FIXTURE);
    let punctuation = "0123456789~!@#$%^&*()_+-=[]{};':\",./<>? ";
    for c in ('A'..='Z').chain('a'..='z').chain(punctuation.chars()) {
        let shift = if c.is_ascii_uppercase() { KeyModifiers::SHIFT } else { KeyModifiers::NONE };
        assert_eq!(press(&mut s, KeyCode::Char(c), shift), Effect::None, "{c:?}");
        assert_eq!(s.mode, Mode::Browse, "{c:?} opened a prompt");
        assert!(s.query.ends_with(c), "{c:?} did not type into the search");
    }
}

#[test]
fn a_new_model_keeps_the_selection_folds_and_shows_the_new_label() {
    let mut s = selector(FIXTURE);
    key(&mut s, KeyCode::Home);
    key(&mut s, KeyCode::Down); // the assistant's first answer
    let labelled = format!(
        "{FIXTURE}{}\n",
        r#"{"type":"label","id":"c0000002","parentId":"a0000005","timestamp":"2026-01-01T10:00:12.000Z","targetId":"a0000001","label":"plan"}"#
    );
    s.replace_model(model(&session(&labelled), false));
    assert_eq!(selected_text(&s), "assistant: I will read the parser first.");
    let text = screen(&mut s, 80, 24, PLAIN);
    assert!(text.contains("› • [plan] assistant: I will read the parser first.\n"), "{text}");
    // The last entry is now the label entry; as in `tree`, the leaf is where the conversation
    // goes on, the entry below it, which keeps `← active`.
    assert!(text.contains("  │  • assistant: Changelog entry added. ← active\n"), "{text}");
}

#[test]
fn enter_checks_out_and_shift_enter_asks_for_a_summary() {
    let mut s = selector(FIXTURE);
    // The leaf too: `checkout` is the one to say "Already at this point".
    assert_eq!(key(&mut s, KeyCode::Enter), Effect::Checkout { id: id("a0000005"), summary: None });
    key(&mut s, KeyCode::Up);
    assert_eq!(key(&mut s, KeyCode::Enter), Effect::Checkout { id: id("d0000004"), summary: None });

    assert_eq!(press(&mut s, KeyCode::Enter, KeyModifiers::SHIFT), Effect::None);
    assert_eq!(s.mode, Mode::Prompt { row: 8, input: String::new(), label: false });
    let text = screen(&mut s, 80, 24, PLAIN);
    assert!(text.contains("\n  Summary (empty asks the summarizer):\n"), "{text}");
    assert_eq!(
        key(&mut s, KeyCode::Enter),
        Effect::Checkout { id: id("d0000004"), summary: Some(SummaryRequest::Summarize) }
    );
    // Alt+Enter does the same where Shift+Enter cannot be told from Enter.
    press(&mut s, KeyCode::Enter, KeyModifiers::ALT);
    typed(&mut s, "Tried the README first.");
    assert_eq!(
        key(&mut s, KeyCode::Enter),
        Effect::Checkout {
            id: id("d0000004"),
            summary: Some(SummaryRequest::Text("Tried the README first.".into()))
        }
    );
    press(&mut s, KeyCode::Enter, KeyModifiers::SHIFT);
    assert_eq!(key(&mut s, KeyCode::Esc), Effect::None);
    assert_eq!(s.mode, Mode::Browse);
}

#[test]
fn ctrl_c_interrupts_from_anywhere() {
    let mut s = selector(FIXTURE);
    assert_eq!(ctrl(&mut s, 'c'), Effect::Interrupt);
    ctrl(&mut s, 'l');
    assert_eq!(ctrl(&mut s, 'c'), Effect::Interrupt);
}

#[test]
fn alt_r_shows_archived_branches() {
    let archived = format!(
        "{FIXTURE}{}\n",
        r#"{"type":"archive","id":"b0000001","parentId":"a0000005","timestamp":"2026-01-01T10:00:12.000Z","targetId":"d0000002","archived":true}"#
    );
    let session = session(&archived);
    let mut s = Selector::new(model(&session, false), FilterMode::Default, String::new(), false);
    assert!(!screen(&mut s, 80, 24, PLAIN).contains("Now write the tests"));
    assert_eq!(alt(&mut s, 'r'), Effect::Rebuild);
    assert!(s.show_archived);
    s.replace_model(model(&session, true));
    let text = screen(&mut s, 80, 24, PLAIN);
    assert!(text.contains("  └─ user: Now write the tests\n"), "{text}");
    assert!(text.contains("(8/10) [archived shown]"), "{text}");
}

#[test]
fn the_initial_selection_is_the_nearest_visible_ancestor_of_the_leaf() {
    let labelled = format!(
        "{FIXTURE}{}\n",
        r#"{"type":"label","id":"c0000002","parentId":"a0000005","timestamp":"2026-01-01T10:00:12.000Z","targetId":"a0000001","label":"plan"}"#
    );
    let s = selector(&labelled);
    assert_eq!(selected_text(&s), "assistant: Changelog entry added.");
    // With an initial search that hides the whole active path, the last row.
    let session = session(FIXTURE);
    let s =
        Selector::new(model(&session, false), FilterMode::Default, "tests written".into(), false);
    assert_eq!(selected_text(&s), "assistant: Tests written and passing.");
}

#[test]
fn transcript_text_cannot_drive_the_terminal() {
    let mut s = selector(&chat(&[r"a - 01 evil \u001b[2J\u0007 text"]));
    let text = screen(&mut s, 80, 24, PLAIN);
    assert!(text.contains(r"user: evil \x1b[2J\x07 text"), "{text}");
}

#[test]
fn long_messages_wrap_instead_of_being_cut() {
    let mut s = selector(FIXTURE);
    s.message = Some(
        "Navigation cancelled: the session_before_tree hook /home/me/.config/sesstree/hooks/session_before_tree cancelled the checkout"
            .into(),
    );
    let text = screen(&mut s, 50, 24, PLAIN);
    insta::assert_snapshot!(text.lines().skip(13).take(5).collect::<Vec<_>>().join("\n"), @"
    hook /home/me/.config/sesstree/hooks/session_bef
    ore_tree cancelled the checkout
    ↑/↓ move · ←/→ PgUp/PgDn page
    Home/End first/last · Alt+↑/↓ prev/next message
    Enter check out
    ");
}

/// At 80 columns a long row gives way to the width: `← active` stays in sight.
#[test]
fn the_active_marker_stays_in_sight_at_80_columns() {
    let long = format!("u2 u1 02 {}", "word ".repeat(30).trim_end());
    let mut s = selector(&chat(&["u1 - 01 first", &long]));
    let text = screen(&mut s, 80, 24, PLAIN);
    let leaf = text.lines().find(|l| l.contains("word")).unwrap();
    assert!(leaf.ends_with("… ← active"), "{leaf}");
    assert_eq!(unicode_width::UnicodeWidthStr::width(leaf), 80, "{leaf}");
}

/// Ctrl+L on a version 1 file says at once that it must be migrated, before any text is
/// typed (the `label` command would refuse it).
#[test]
fn a_label_on_a_version_1_file_is_refused_before_typing() {
    let v1 = concat!(
        r#"{"type":"session","id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}"#,
        "\n",
        r#"{"type":"message","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}"#,
        "\n",
    );
    let mut s = selector(v1);
    ctrl(&mut s, 'l');
    assert!(matches!(s.mode, Mode::Browse));
    let text = screen(&mut s, 80, 24, PLAIN);
    assert!(
        text.contains("The file is version 1 (entries without ids); run `sesstree migrate`"),
        "{text}"
    );
}

/// After a bare checkout the last entry is the move marker; as `tree` does, the selector marks
/// the entry it moved to, not the marker.
#[test]
fn after_a_bare_checkout_the_leaf_is_the_entry_moved_to() {
    let mut text = chat(&["u1 - 01 first", "u2 u1 02 second", "u3 u2 03 third"]);
    text.push_str(r#"{"type":"branch_summary","id":"m1","parentId":"u1","timestamp":"2026-01-01T00:00:04.000Z","fromId":"u3","summary":""}"#);
    text.push('\n');
    let mut s = selector(&text);
    let screen = screen(&mut s, 80, 24, PLAIN);
    assert!(screen.contains("user: first ← active"), "{screen}");
}

/// Tab shows the selected entry whole below the rows, as `show` prints it, and hides it again.
#[test]
fn tab_previews_the_selected_entry_whole() {
    let long = format!("u2 u1 02 {} the end", "word ".repeat(40).trim_end());
    let session = session(&chat(&["u1 - 01 first", &long]));
    let mut s = Selector::new(model(&session, false), FilterMode::Default, String::new(), false);
    key(&mut s, KeyCode::Tab);
    assert!(s.preview);
    super::refresh_preview(&mut s, &session);
    let text = screen(&mut s, 80, 40, PLAIN);
    assert!(text.contains("entry u2 (message, user)"), "{text}");
    assert!(text.contains("word the end"), "{text}");
    assert!(text.contains("Tab preview"), "{text}");
    key(&mut s, KeyCode::Tab);
    super::refresh_preview(&mut s, &session);
    assert!(!screen(&mut s, 80, 24, PLAIN).contains("entry u2"));
}
