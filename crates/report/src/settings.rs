//! `judge config`: each setting, its value and where it came from, as a table.

use crate::{bold, dim};

/// A setting as shown: its name, its value and where the value came from, as text.
pub struct Row {
    pub name: &'static str,
    pub value: String,
    pub from: String,
}

/// The settings as a table, then where the user's config file is looked for.
pub fn render(rows: &[Row], user_config: &str) -> String {
    let name_w = rows.iter().map(|r| r.name.len()).max().unwrap_or(0).max(7);
    let value_w = rows.iter().map(|r| r.value.len()).max().unwrap_or(0).max(5);
    let mut out = format!(
        "{}\n",
        bold(&format!(
            "{:<name_w$}  {:<value_w$}  from",
            "setting", "value"
        ))
    );
    for r in rows {
        let line = format!("{:<name_w$}  {:<value_w$}  ", r.name, r.value);
        out.push_str(&format!("{line}{}\n", dim(&r.from)));
    }
    out.push_str(&format!("\nuser config: {user_config}\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_columns_line_up() {
        let rows = [
            Row {
                name: "history",
                value: ".judge/history.db".into(),
                from: "default".into(),
            },
            Row {
                name: "cluster.url",
                value: "nats://h:4222".into(),
                from: "flag --nats".into(),
            },
        ];
        let text = render(&rows, "/home/me/.config/judge/config.toml (none there)");
        let text = anstream::adapter::strip_str(&text).to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "setting      value              from");
        assert_eq!(lines[1], "history      .judge/history.db  default");
        assert_eq!(lines[2], "cluster.url  nats://h:4222      flag --nats");
        assert_eq!(
            lines[4],
            "user config: /home/me/.config/judge/config.toml (none there)"
        );
    }
}
