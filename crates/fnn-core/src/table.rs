//! Tables for the terminal and text files: columns sized to their
//! contents, and when a width is given, wrapped to fit it instead of
//! running past the screen's edge.

use comfy_table::{CellAlignment, ColumnConstraint, ContentArrangement, Table, presets};

/// `header` over `rows`, numbers (cells that parse as one) right-aligned
/// and kept whole; at most `width` columns wide when given, the text
/// columns wrapping at word boundaries to fit. When the numbers leave a
/// text column (other than the first) too little room to read, it moves
/// under the table as `first: header: text` lines.
pub fn fitted(header: &[&str], rows: &[Vec<String>], width: Option<u16>) -> String {
    let numeric: Vec<bool> = (0..header.len())
        .map(|i| {
            rows.iter()
                .all(|r| r.get(i).is_none_or(|c| c.is_empty() || c.parse::<f64>().is_ok()))
        })
        .collect();
    let widest = |i: usize| {
        rows.iter()
            .filter_map(|r| r.get(i))
            .map(|c| c.chars().count())
            .chain([header[i].chars().count()])
            .max()
            .unwrap_or(0)
            + 2
    };
    let kept_whole: usize = (0..header.len()).filter(|&i| numeric[i] || i == 0).map(widest).sum();
    let text_cols = (1..header.len()).filter(|&i| !numeric[i]).count();
    let moved = width.is_some_and(|w| kept_whole + text_cols * MIN_TEXT > w as usize);
    let shown: Vec<usize> = (0..header.len())
        .filter(|&i| !(moved && i > 0 && !numeric[i]))
        .collect();
    let mut t = Table::new();
    t.load_style(presets::NOTHING);
    match width {
        // Numbers are never broken: when they alone are wider than the
        // screen, the lines run long rather than split a figure.
        Some(w) if kept_whole <= w as usize => t.set_content_arrangement(ContentArrangement::Dynamic).set_width(w),
        _ => t.set_content_arrangement(ContentArrangement::Disabled),
    };
    t.set_header(shown.iter().map(|&i| header[i]).collect::<Vec<_>>());
    for row in rows {
        t.add_row(
            shown
                .iter()
                .map(|&i| row.get(i).cloned().unwrap_or_default())
                .collect::<Vec<_>>(),
        );
    }
    for (col, &i) in t.column_iter_mut().zip(&shown) {
        // Flush left, two spaces between columns.
        col.set_padding((0, 2));
        if numeric[i] {
            col.set_cell_alignment(CellAlignment::Right);
        }
        if numeric[i] || i == 0 {
            col.set_constraint(ColumnConstraint::ContentWidth);
        }
    }
    // Lines keep no trailing blanks.
    let mut out: String = t.lines().map(|l| l.trim_end().to_string() + "\n").collect();
    for i in (1..header.len()).filter(|i| !shown.contains(i)) {
        for row in rows {
            let (first, text) = (
                row.first().cloned().unwrap_or_default(),
                row.get(i).cloned().unwrap_or_default(),
            );
            out.push_str(&wrap(&format!("{first}: {}: {text}", header[i]), width));
        }
    }
    out
}

/// `text` broken at spaces into lines of at most `width` characters (a
/// word longer than that keeps its own line), the later lines indented.
pub fn wrap(text: &str, width: Option<u16>) -> String {
    let Some(w) = width.map(usize::from) else {
        return format!("{text}\n");
    };
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > w {
            out.push_str(&line);
            out.push('\n');
            line = format!("  {word}");
        } else if len > 0 {
            line.push(' ');
            line.push_str(word);
        } else {
            line.push_str(word);
        }
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// The narrowest a wrapped text column may be and still be read.
const MIN_TEXT: usize = 16;

#[cfg(test)]
mod tests {
    use super::fitted;

    #[test]
    fn a_table_given_a_width_never_runs_past_it_and_loses_no_word() {
        let rows = vec![vec![
            "fat-tree".to_string(),
            "12".to_string(),
            "a note long enough to run past eighty columns on any terminal, as compare's notes do".to_string(),
        ]];
        let text = fitted(&["system", "switches", "note"], &rows, Some(60));
        assert!(text.lines().all(|l| l.chars().count() <= 60), "{text}");
        assert!(
            text.contains("switches") && text.contains("12"),
            "numbers and their headers whole: {text}"
        );
        for word in ["fat-tree", "eighty", "notes", "do"] {
            assert!(text.contains(word), "{word} lost: {text}");
        }
        let wide = fitted(&["system", "switches", "note"], &rows, None);
        assert_eq!(wide.lines().count(), 2, "no width: one line a row");
        // Numbers that fill the width leave the note no room: it moves
        // under the table whole instead of a letter a line.
        let narrow = fitted(&["system", "switches", "note"], &rows, Some(24));
        assert!(narrow.contains("fat-tree: note: a note"), "{narrow}");
        assert!(narrow.lines().all(|l| l.chars().count() <= 24), "{narrow}");
        assert!(
            narrow.lines().any(|l| l.starts_with("fat-tree") && l.contains("12")),
            "{narrow}"
        );
        for word in ["eighty", "compare's", "do"] {
            assert!(narrow.contains(word), "{word} lost: {narrow}");
        }
    }
}
