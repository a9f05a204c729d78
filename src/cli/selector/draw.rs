//! Drawing the selector: the title, the tree rows as `tree` draws them (FORMAT §9.1) with the
//! cursor and the highlighted selection, the status line, the prompt or message line and a
//! help footer that wraps to the width.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use sesstree::render::Role;
use sesstree::render::tree::SelectorRow;
use sesstree::row::text::FilterMode;
use sesstree::terminal::sanitize_for_terminal;
use unicode_width::UnicodeWidthStr;

use super::state::{Mode, Selector};

/// How the selector looks: colours or not, box drawing or ASCII.
#[derive(Debug, Clone, Copy)]
pub struct Look {
    /// Colours (off with NO_COLOR or `--color never`: only bold and reverse video remain).
    pub color: bool,
    /// ASCII glyphs (`--ascii`).
    pub ascii: bool,
}

impl Look {
    /// The separator between help items.
    fn dot(&self) -> &'static str {
        if self.ascii { "|" } else { "·" }
    }

    fn fg(&self, color: Color) -> Style {
        if self.color { Style::new().fg(color) } else { Style::new() }
    }

    fn dim(&self) -> Style {
        if self.color { Style::new().add_modifier(Modifier::DIM) } else { Style::new() }
    }

    /// The colours of a piece of a tree row, as the agent's selector has them.
    fn of(&self, role: Role) -> Style {
        match role {
            Role::Cursor | Role::Fold | Role::Kind => self.fg(Color::Cyan),
            Role::Dim | Role::Time => self.dim(),
            Role::Bullet => self.fg(Color::Green),
            Role::Active => self.fg(Color::Green).add_modifier(Modifier::BOLD),
            Role::Label | Role::Id => self.fg(Color::Yellow),
            Role::Text => Style::new(),
        }
    }

    /// The selected row: bold on a highlight background, or bold in reverse video without
    /// colours.
    fn highlight(&self) -> Style {
        let bold = Style::new().add_modifier(Modifier::BOLD);
        if self.color { bold.bg(Color::DarkGray) } else { bold.add_modifier(Modifier::REVERSED) }
    }
}

/// How many lines the rows and the preview share on a screen of `width` × `height`: every
/// line the title, the status line, the prompt or message and the key help leave (the whole
/// screen, not the agent's half of it: a terminal selector owns the screen).
fn body_lines(s: &Selector, look: &Look, width: u16, height: u16) -> usize {
    let below = 1
        + prompt_lines(s, look, width as usize).0.len()
        + help_lines(s, look, width as usize).len();
    (height as usize).saturating_sub(1 + below).max(1)
}

/// How many tree rows are shown on a screen of `width` × `height`: with the preview on, half
/// of the lines there are, the preview taking the rest.
pub fn rows_shown(s: &Selector, look: &Look, width: u16, height: u16) -> usize {
    let lines = body_lines(s, look, width, height);
    if s.preview { lines.div_ceil(2) } else { lines }
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, s: &Selector, look: &Look) {
    let area = frame.area();
    let mut y = area.y;
    let bottom = area.y + area.height;
    let line_at = |frame: &mut Frame, y: &mut u16, line: Line| {
        if *y < bottom {
            frame.render_widget(line, Rect::new(area.x, *y, area.width, 1));
            *y += 1;
        }
    };

    let title = Line::from(vec![
        Span::styled("Session tree", Style::new().add_modifier(Modifier::BOLD)),
        Span::styled(format!(" {} {}", look.dot(), s.model.title), look.dim()),
    ]);
    line_at(frame, &mut y, title);

    let shown = rows_shown(s, look, area.width, area.height);
    let tree_area = Rect::new(area.x, y, area.width, (shown as u16).min(bottom.saturating_sub(y)));
    draw_rows(frame, s, look, tree_area);
    y += tree_area.height;
    // The lines the preview (Tab) has: those the rows leave above the status line.
    let preview = if s.preview { body_lines(s, look, area.width, area.height) / 2 } else { 0 };
    if preview > 0 {
        let text = s.preview_text.as_deref().unwrap_or_default();
        let rule = if look.ascii { "-" } else { "─" }.repeat(area.width as usize);
        let mut lines = vec![rule];
        for line in text.lines() {
            lines.extend(wrap(line, (area.width as usize).max(1)));
            if line.is_empty() {
                lines.push(String::new());
            }
        }
        for line in lines.into_iter().take(preview) {
            line_at(frame, &mut y, Line::styled(line, look.dim()));
        }
        y = (tree_area.y + tree_area.height + preview as u16).min(bottom);
    }

    line_at(frame, &mut y, status_line(s, look));
    let (prompt, cursor) = prompt_lines(s, look, area.width as usize);
    if let Some(col) = cursor
        && y < bottom
    {
        frame.set_cursor_position((area.x + col.min(area.width.saturating_sub(1)), y));
    }
    for line in prompt {
        line_at(frame, &mut y, line);
    }
    for text in help_lines(s, look, area.width as usize) {
        line_at(frame, &mut y, Line::styled(text, look.dim()));
    }
}

/// The tree rows in view, scrolled so that the selection stays near the middle.
fn draw_rows(frame: &mut Frame, s: &Selector, look: &Look, area: Rect) {
    if area.height == 0 {
        return;
    }
    let visible = s.visible();
    if visible.is_empty() {
        let mut lines = empty_message(s);
        if lines.len() > area.height as usize {
            lines = vec![lines.join(&format!(" {} ", look.dot()))];
        }
        for (i, text) in lines.into_iter().enumerate().take(area.height as usize) {
            let rect = Rect::new(area.x, area.y + i as u16, area.width, 1);
            frame.render_widget(Line::styled(format!("  {text}"), look.fg(Color::Yellow)), rect);
        }
        return;
    }
    let page = area.height as usize;
    let cursor = s.cursor().unwrap_or(0);
    let start = cursor.saturating_sub(page / 2).min(visible.len().saturating_sub(page));
    for (i, &row) in visible.iter().skip(start).take(page).enumerate() {
        let rect = Rect::new(area.x, area.y + i as u16, area.width, 1);
        let selected = s.selected() == Some(row);
        if selected {
            frame.buffer_mut().set_style(rect, look.highlight());
        }
        frame.render_widget(row_line(s, look, row, selected, area.width), rect);
    }
}

/// One tree row, as the output layer lays it out, in the selector's colours.
fn row_line(s: &Selector, look: &Look, row: usize, selected: bool, width: u16) -> Line<'static> {
    let r = &s.model.rows[row];
    let drawn = SelectorRow {
        row: &s.model.layout.rows[row],
        label: r.label.as_deref(),
        text: &r.text,
        selected,
        folded: s.is_folded(row),
    };
    let mut spans = Vec::with_capacity(8);
    drawn.pieces(&s.model.layout, look.ascii, width as usize, |text, role| {
        spans.push(Span::styled(text.to_owned(), look.of(role)));
    });
    Line::from(spans)
}

/// What an empty list says (FORMAT §9.2).
fn empty_message(s: &Selector) -> Vec<String> {
    if !s.query.trim().is_empty() {
        return vec![format!("No entries match search \"{}\"", sanitize_for_terminal(&s.query))];
    }
    if s.model.rows.is_empty() {
        let mut lines = vec!["No entries found".to_string()];
        if !s.show_archived {
            lines.push("Alt+R shows archived branches".into());
        }
        return lines;
    }
    vec![
        format!(
            "{} entries hidden by the current filter [{}]",
            s.model.rows.len(),
            s.filter.as_str()
        ),
        "Alt+A shows all, Alt+D the default".into(),
    ]
}

/// `(i/n) [filter]`, then what else narrows the view.
fn status_line(s: &Selector, look: &Look) -> Line<'static> {
    let n = s.visible().len();
    let i = s.cursor().map_or(0, |c| c + 1);
    let mut spans = vec![Span::raw(format!("  ({i}/{n})"))];
    // The filter as the agent's footer names it: as --filter does, without `-only`, and
    // nothing for the default.
    if s.filter != FilterMode::Default {
        let tag = format!("[{}]", s.filter.as_str().trim_end_matches("-only"));
        spans.push(Span::raw(" "));
        spans.push(Span::styled(tag, look.fg(Color::Cyan)));
    }
    if s.show_archived {
        spans.push(Span::styled(" [archived shown]", look.fg(Color::Cyan)));
    }
    let folded = s.hidden_by_folds();
    if folded > 0 {
        spans.push(Span::styled(format!(" [{folded} folded]"), look.dim()));
    }
    if !s.query.is_empty() {
        spans.push(Span::raw("  Search: "));
        spans.push(Span::styled(
            sanitize_for_terminal(&s.query).into_owned(),
            Style::new().add_modifier(Modifier::BOLD),
        ));
    }
    Line::from(spans)
}

/// The prompt being typed, or the last message, and where the terminal cursor goes.
fn prompt_lines(s: &Selector, look: &Look, width: usize) -> (Vec<Line<'static>>, Option<u16>) {
    let (label, input) = match &s.mode {
        Mode::Prompt { input, label: true, .. } => ("Label (empty to remove): ", input),
        Mode::Prompt { input, label: false, .. } => {
            ("Summary (empty asks the summarizer): ", input)
        }
        Mode::Browse => {
            // A message (an error, say) wraps onto up to three lines rather than being cut.
            let text = sanitize_for_terminal(s.message.as_deref().unwrap_or_default());
            let mut lines = wrap(&text, width.saturating_sub(2).max(1));
            lines.truncate(3);
            if lines.is_empty() {
                lines.push(String::new());
            }
            let style = look.fg(Color::Yellow);
            return (
                lines.into_iter().map(|l| Line::styled(format!("  {l}"), style)).collect(),
                None,
            );
        }
    };
    let input = sanitize_for_terminal(input).into_owned();
    let col = 2 + label.width() + input.width();
    let line = Line::from(vec![
        Span::raw("  "),
        Span::styled(label, Style::new().add_modifier(Modifier::BOLD)),
        Span::raw(input),
    ]);
    (vec![line], Some(col as u16))
}

/// The key help, packed into lines of `width` columns without splitting an item.
fn help_lines(s: &Selector, look: &Look, width: usize) -> Vec<String> {
    let items: &[&str] = match s.mode {
        Mode::Browse => &[
            "↑/↓ move",
            "←/→ PgUp/PgDn page",
            "Home/End first/last",
            "Alt+↑/↓ prev/next message",
            "Enter check out",
            "Shift+Enter (Alt+Enter) summarize and check out",
            "Ctrl+L label",
            "Ctrl+O filter",
            "Alt+D/T/U/L/A default/no-tools/user/labeled/all",
            "Alt+R archived",
            "Tab preview",
            "Ctrl+←/→ fold/unfold",
            "type to search",
            "Esc clear search/quit",
        ],
        Mode::Prompt { .. } => &["Enter save", "Esc cancel", "Ctrl+U clear"],
    };
    // Plain arrows for terminals that lack the glyphs.
    let ascii = |i: &&str| i.replace("↑/↓", "Up/Down").replace("←/→", "Left/Right");
    let items: Vec<String> =
        items.iter().map(|i| if look.ascii { ascii(i) } else { i.to_string() }).collect();
    pack(&items, &format!(" {} ", look.dot()), width.saturating_sub(2).max(1))
        .into_iter()
        .map(|l| format!("  {l}"))
        .collect()
}

/// Packs items into lines of `width` columns, separated by `sep`. An item moves whole to the
/// next line when it does not fit; only an item wider than a line is broken, by [`wrap`].
fn pack(items: &[impl AsRef<str>], sep: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for item in items.iter().map(AsRef::as_ref) {
        if !cur.is_empty() && cur.width() + sep.width() + item.width() > width {
            lines.push(std::mem::take(&mut cur));
        }
        if item.width() > width {
            let mut wrapped = wrap(item, width);
            cur = wrapped.pop().unwrap_or_default();
            lines.extend(wrapped);
            continue;
        }
        if !cur.is_empty() {
            cur.push_str(sep);
        }
        cur.push_str(item);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

/// Wraps text at its spaces into lines of `width` columns; a word wider than a line (a path,
/// say) is cut where the line ends.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in text.split(' ') {
        let fits = word.width() <= width;
        if !cur.is_empty() {
            if cur.width() + 1 + if fits { word.width() } else { 1 } > width {
                lines.push(std::mem::take(&mut cur));
            } else {
                cur.push(' ');
            }
        }
        for c in word.chars() {
            let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
            if !cur.is_empty() && cur.width() + w > width {
                lines.push(std::mem::take(&mut cur));
            }
            cur.push(c);
        }
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_items_stay_whole_unless_wider_than_a_line() {
        assert_eq!(pack(&["aa bb", "cc", "dd ee"], " · ", 11), ["aa bb · cc", "dd ee"]);
        assert_eq!(
            pack(&["aa", "bbb ccc ddd eee", "f"], " · ", 8),
            ["aa", "bbb ccc", "ddd eee", "f"]
        );
        assert_eq!(wrap("a bb ccc dd", 6), ["a bb", "ccc dd"]);
        assert_eq!(wrap("see /a/long/path now", 8), ["see /a/l", "ong/path", "now"]);
    }
}
