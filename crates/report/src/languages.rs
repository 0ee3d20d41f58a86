//! `judge list --languages`: every language the judge knows, installed first with its
//! toolchain's version, then the others with what each needs.

use judge_core::workspace::installed::Installed;

use crate::{bold, dim};

/// The languages as a list: installed ones with their versions, then the rest.
pub fn render(all: &[Installed]) -> String {
    let extensions = |i: &Installed| {
        if i.language.extensions.is_empty() {
            "-".to_string()
        } else {
            let exts: Vec<String> = i
                .language
                .extensions
                .iter()
                .map(|e| format!(".{e}"))
                .collect();
            exts.join(" ")
        }
    };
    let id_w = all.iter().map(|i| i.language.id.len()).max().unwrap_or(0);
    let name_w = all.iter().map(|i| i.language.name.len()).max().unwrap_or(0);
    let ext_w = all.iter().map(|i| extensions(i).len()).max().unwrap_or(0);
    let (on, off): (Vec<&Installed>, Vec<&Installed>) =
        all.iter().partition(|i| i.toolchain.is_ok());
    let mut out = String::new();
    for (title, group) in [("installed", &on), ("not installed", &off)] {
        if group.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!("{}\n", bold(title)));
        for i in group.iter() {
            let what = match &i.toolchain {
                Ok(version) => version.clone(),
                Err(why) => dim(&why.to_string()),
            };
            out.push_str(&format!(
                "  {:<id_w$}  {:<name_w$}  {:<ext_w$}  {what}\n",
                i.language.id,
                i.language.name,
                extensions(i)
            ));
        }
    }
    out.push_str(&format!(
        "\n{} of {} languages installed\n",
        on.len(),
        all.len()
    ));
    out
}
