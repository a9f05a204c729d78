//! How text output looks: the colour of each piece of output, decided once by the caller (the
//! binary resolves `--color` against the terminal) and passed to every printer.

use owo_colors::OwoColorize;

/// What a piece of output is, so it can be coloured consistently.
#[derive(Debug, Clone, Copy)]
pub enum Role {
    /// An entry id.
    Id,
    /// An entry type.
    Kind,
    /// A timestamp.
    Time,
    /// A `[label]`.
    Label,
    /// The `← active` marker.
    Active,
    /// The bullet of a row on the active path.
    Bullet,
    /// Tree connectors and other structure.
    Dim,
    /// The selector's cursor.
    Cursor,
    /// The mark of a branch folded in the selector.
    Fold,
    /// Text that keeps the terminal's own colour: a row's text, the spaces between pieces.
    Text,
}

/// How text output looks: decided once, passed to every renderer.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Whether to emit ANSI colours.
    pub color: bool,
}

impl Style {
    /// Paints already-sanitized text in the colour of its role.
    pub fn paint(&self, text: &str, role: Role) -> String {
        let mut out = String::with_capacity(text.len() + if self.color { 16 } else { 0 });
        self.paint_into(&mut out, text, role);
        out
    }

    /// [`Style::paint`] onto the end of `out`.
    pub fn paint_into(&self, out: &mut String, text: &str, role: Role) {
        use std::fmt::Write as _;
        if !self.color || matches!(role, Role::Text) {
            out.push_str(text);
            return;
        }
        // Writing to a String cannot fail.
        let _ = match role {
            Role::Id => write!(out, "{}", text.yellow()),
            Role::Kind => write!(out, "{}", text.cyan()),
            Role::Time => write!(out, "{}", text.dimmed()),
            Role::Label => write!(out, "{}", text.green()),
            Role::Active | Role::Bullet => write!(out, "{}", text.bright_green().bold()),
            Role::Dim => write!(out, "{}", text.dimmed()),
            Role::Cursor | Role::Fold => write!(out, "{}", text.cyan()),
            Role::Text => Ok(()),
        };
    }
}
