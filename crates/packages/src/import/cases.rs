//! The tests of an import against the cases already in a folder: which are new (and their
//! names there), which are there already, which clash with a case there; and its sample
//! interactions, named as their samples are there.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::{Draft, DraftCase, DraftInteraction};
use judge_core::error::{Error, Result};
use judge_core::scaffold;

/// Where each test of the draft goes.
pub(super) struct CasePlan<'a> {
    /// New files: the case's name and the test.
    pub(super) writes: Vec<(String, &'a DraftCase)>,
    /// Tests there already, by their names there.
    pub(super) known: Vec<(String, &'a DraftCase)>,
    /// Tests whose input is there with another answer: the existing case's name.
    pub(super) conflicting: Vec<String>,
    /// New sample interactions: the name of `NAME.interaction` and the interaction.
    pub(super) interactions: Vec<(String, &'a DraftInteraction)>,
    /// Sample interactions left out: their sample's name is another conversation's there.
    pub(super) conflicting_interactions: Vec<String>,
    /// New tests (of `writes`) whose answer is there already without its input: an import
    /// stopped between the two. Only their input is written.
    pub(super) completing: BTreeSet<String>,
}

impl CasePlan<'_> {
    /// Every sample of the import by its name in the workspace, new or known.
    pub(super) fn sample_names(&self) -> BTreeSet<String> {
        self.writes
            .iter()
            .chain(&self.known)
            .filter(|(_, c)| c.sample)
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// Writes the new tests into `dir`, each answer before its input: a run started meanwhile
    /// never sees an input without its answer.
    pub(super) fn write(&self, dir: &Path) -> Result<()> {
        if self.writes.is_empty() && self.interactions.is_empty() {
            return Ok(());
        }
        std::fs::create_dir_all(dir).map_err(|e| Error::create(dir, e))?;
        for (name, case) in &self.writes {
            // The answer first: a run started meanwhile sees no input without its answer.
            let (answer, input) = (
                dir.join(format!("{name}.out")),
                dir.join(format!("{name}.in")),
            );
            if self.completing.contains(name) {
                judge_core::atomic::create(&input, &case.input)?;
            } else {
                judge_core::atomic::create_together(&[
                    (&answer, &case.answer),
                    (&input, &case.input),
                ])?;
            }
        }
        for (name, interaction) in &self.interactions {
            scaffold::create(&dir.join(format!("{name}.interaction")), &interaction.text)?;
        }
        Ok(())
    }
}

/// Compares the draft's tests with the cases in `dir` (which may not exist yet) and names the
/// new ones.
pub(super) fn plan_cases<'a>(dir: &Path, draft: &'a Draft) -> Result<CasePlan<'a>> {
    let mut there = There::read(dir)?;
    let mut plan = CasePlan {
        writes: Vec::new(),
        known: Vec::new(),
        conflicting: Vec::new(),
        interactions: Vec::new(),
        conflicting_interactions: Vec::new(),
        completing: BTreeSet::new(),
    };
    for case in &draft.cases {
        plan.add_case(case, &mut there);
    }
    for interaction in &draft.interactions {
        plan.add_interaction(interaction, &mut there);
    }
    Ok(plan)
}

/// What a folder of cases holds already.
#[derive(Default)]
struct There {
    /// Every name in use, whatever its extension.
    taken: BTreeSet<String>,
    /// Whole cases: name, input, answer.
    existing: Vec<(String, PathBuf, PathBuf)>,
    /// Sample interactions, by name.
    conversations: Vec<(String, PathBuf)>,
    /// Answers without their input (`NAME.out`), by name.
    orphans: Vec<(String, PathBuf)>,
}

impl There {
    /// Lists `dir`, which may not exist yet.
    fn read(dir: &Path) -> Result<There> {
        let mut there = There::default();
        if !dir.is_dir() {
            return Ok(there);
        }
        let mut inputs = Vec::new();
        let mut answers = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(|e| Error::list(dir, e))? {
            let name = entry.map_err(|e| Error::list(dir, e))?.file_name();
            let name = name.to_string_lossy();
            let Some((stem, ext)) = name.rsplit_once('.') else {
                continue;
            };
            if stem.is_empty() || stem.starts_with('.') {
                continue;
            }
            there.taken.insert(stem.to_string());
            match ext {
                "in" => inputs.push(stem.to_string()),
                "out" => answers.push(stem.to_string()),
                "interaction" => there
                    .conversations
                    .push((stem.to_string(), dir.join(&*name))),
                _ => {}
            }
        }
        for stem in &inputs {
            let answer = ["out", "ans"]
                .iter()
                .map(|e| dir.join(format!("{stem}.{e}")))
                .find(|p| p.is_file());
            if let Some(answer) = answer {
                there
                    .existing
                    .push((stem.clone(), dir.join(format!("{stem}.in")), answer));
            }
        }
        there.orphans = answers
            .into_iter()
            .filter(|stem| !inputs.contains(stem))
            .map(|stem| (stem.clone(), dir.join(format!("{stem}.out"))))
            .collect();
        Ok(there)
    }
}

impl<'a> CasePlan<'a> {
    /// Places one test of the import: known, conflicting, completing an orphan, or new.
    fn add_case(&mut self, case: &'a DraftCase, there: &mut There) {
        let same_input = |input: &Path| {
            std::fs::metadata(input).is_ok_and(|m| m.len() == case.input.len() as u64)
                && std::fs::read(input).is_ok_and(|d| d == case.input)
        };
        if let Some((name, _, answer)) = there.existing.iter().find(|(_, i, _)| same_input(i)) {
            if std::fs::read(answer).is_ok_and(|a| a == case.answer) {
                self.known.push((name.clone(), case));
            } else {
                self.conflicting.push(name.clone());
            }
            return;
        }
        if let Some((name, earlier)) = self.writes.iter().find(|(_, c)| c.input == case.input) {
            // The same test twice in one import.
            if earlier.answer == case.answer {
                self.known.push((name.clone(), case));
            } else {
                self.conflicting.push(name.clone());
            }
            return;
        }
        // An answer left without its input by an import that was stopped: this test's.
        let left = there
            .orphans
            .iter()
            .position(|(_, answer)| std::fs::read(answer).is_ok_and(|a| a == case.answer));
        if let Some(i) = left {
            let (name, _) = there.orphans.swap_remove(i);
            self.completing.insert(name.clone());
            self.writes.push((name, case));
            return;
        }
        let name = fresh_name(case.name.as_deref(), &there.taken);
        there.taken.insert(name.clone());
        self.writes.push((name, case));
    }

    /// Places one sample interaction, under its sample's name here when it has one.
    fn add_interaction(&mut self, interaction: &'a DraftInteraction, there: &mut There) {
        let same = |path: &PathBuf| std::fs::read(path).is_ok_and(|t| t == interaction.text);
        if there.conversations.iter().any(|(_, path)| same(path))
            || self
                .interactions
                .iter()
                .any(|(_, i)| i.text == interaction.text)
        {
            return;
        }
        // The name its sample got here, new or known; else a name of its own.
        let sample = self
            .writes
            .iter()
            .chain(&self.known)
            .find(|(_, c)| c.sample && c.name.as_deref() == Some(interaction.name.as_str()));
        let name = match sample {
            Some((name, _)) => name.clone(),
            None => fresh_name(Some(&interaction.name), &there.taken),
        };
        let clash = there.conversations.iter().any(|(n, _)| *n == name)
            || self.interactions.iter().any(|(n, _)| *n == name);
        if clash {
            self.conflicting_interactions.push(name);
            return;
        }
        there.taken.insert(name.clone());
        self.interactions.push((name, interaction));
    }
}

/// A case name not in `taken`: the source's (made a plain name), else the next number.
fn fresh_name(preferred: Option<&str>, taken: &BTreeSet<String>) -> String {
    let preferred = preferred.map(case_name).filter(|n| !n.is_empty());
    match preferred {
        Some(p) if !taken.contains(&p) => p,
        Some(p) if !p.bytes().all(|b| b.is_ascii_digit()) => (2..)
            .map(|i| format!("{p}-{i}"))
            .find(|n| !taken.contains(n))
            .expect("some name is free"),
        _ => {
            let next = taken
                .iter()
                .filter_map(|n| n.parse::<u64>().ok())
                .max()
                .map_or(1, |m| m + 1);
            (next..)
                .map(|i| i.to_string())
                .find(|n| !taken.contains(n))
                .expect("some number is free")
        }
    }
}

/// `Sample 1` -> `sample-1`: lowercase letters, digits, `-` and `_`.
fn case_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_read_as_whole_cases_orphan_answers_and_interactions() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "1.in",
            "1.out",
            "2.in",
            "2.ans",
            "3.out",
            "4.in",
            "sample-1.interaction",
            ".hidden.in",
            "notes",
        ] {
            std::fs::write(dir.path().join(name), "x\n").unwrap();
        }
        let there = There::read(dir.path()).unwrap();
        let names = |v: Vec<&String>| v.into_iter().cloned().collect::<BTreeSet<String>>();
        let set = |v: &[&str]| {
            v.iter()
                .map(|s| s.to_string())
                .collect::<BTreeSet<String>>()
        };
        assert_eq!(there.taken, set(&["1", "2", "3", "4", "sample-1"]));
        assert_eq!(
            names(there.existing.iter().map(|(n, _, _)| n).collect()),
            set(&["1", "2"])
        );
        let two = there.existing.iter().find(|(n, _, _)| n == "2").unwrap();
        assert_eq!(two.2, dir.path().join("2.ans"));
        assert_eq!(
            there.orphans,
            vec![("3".to_string(), dir.path().join("3.out"))]
        );
        assert_eq!(
            there.conversations,
            vec![(
                "sample-1".to_string(),
                dir.path().join("sample-1.interaction")
            )]
        );
        let none = There::read(&dir.path().join("missing")).unwrap();
        assert!(none.taken.is_empty() && none.existing.is_empty() && none.orphans.is_empty());
    }

    #[test]
    fn new_cases_get_names_not_taken() {
        assert_eq!(case_name("Sample 1"), "sample-1");
        assert_eq!(case_name("sample-1"), "sample-1");
        let taken: BTreeSet<String> = ["1", "2", "sample-1"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(fresh_name(Some("3"), &taken), "3");
        assert_eq!(fresh_name(Some("1"), &taken), "3");
        assert_eq!(fresh_name(None, &taken), "3");
        assert_eq!(fresh_name(Some("Sample 1"), &taken), "sample-1-2");
        assert_eq!(fresh_name(Some("???"), &taken), "3");
    }

    #[test]
    fn a_sample_interaction_follows_its_sample_and_is_recognised() {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in [
            ("sample-1.in", "1\n"),
            ("sample-1.out", "1\n"),
            ("old.interaction", ">7\n<correct\n"),
        ] {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        let interaction = |name: &str, text: &str| DraftInteraction {
            name: name.into(),
            text: text.as_bytes().to_vec(),
        };
        let draft = Draft {
            origin: "a test".into(),
            id: "guess".into(),
            title: "Guess".into(),
            url: None,
            contest: None,
            time: None,
            memory_bytes: None,
            checker: Default::default(),
            interactor: None,
            io: Default::default(),
            cases: vec![DraftCase {
                name: Some("sample-1".into()),
                input: b"2\n".to_vec(),
                answer: b"2\n".to_vec(),
                sample: true,
            }],
            interactions: vec![
                interaction("sample-1", ">2\n<correct\n"),
                interaction("sample-2", ">7\n<correct\n"),
                interaction("sample-3", ">3\n<correct\n"),
                interaction("sample-4", ">3\n<correct\n"),
            ],
            solutions: Vec::new(),
            notes: Vec::new(),
        };
        let plan = plan_cases(dir.path(), &draft).unwrap();
        fn names<T>(v: &[(String, T)]) -> Vec<&str> {
            v.iter().map(|(n, _)| n.as_str()).collect()
        }
        // Another test took `sample-1`: the sample and its conversation are `sample-1-2`.
        assert_eq!(names(&plan.writes), ["sample-1-2"]);
        // `sample-2` is `old` there; `sample-4` is `sample-3` again.
        assert_eq!(names(&plan.interactions), ["sample-1-2", "sample-3"]);
        assert!(plan.conflicting_interactions.is_empty());
        plan.write(dir.path()).unwrap();
        // Once written, the same import finds it all there.
        let again = plan_cases(dir.path(), &draft).unwrap();
        assert!(again.writes.is_empty() && again.interactions.is_empty());
        // The same sample with another conversation is left out, never written over.
        let mut other = draft.clone();
        other.interactions = vec![interaction("sample-1", ">9\n<correct\n")];
        let plan = plan_cases(dir.path(), &other).unwrap();
        assert!(plan.interactions.is_empty());
        assert_eq!(plan.conflicting_interactions, ["sample-1-2"]);
    }
    #[test]
    fn an_answer_left_without_its_input_is_completed_by_the_import_again() {
        let dir = tempfile::tempdir().unwrap();
        // An import stopped between a test's answer and its input.
        std::fs::write(dir.path().join("1.in"), "1\n").unwrap();
        std::fs::write(dir.path().join("1.out"), "1\n").unwrap();
        std::fs::write(dir.path().join("2.out"), "4\n").unwrap();
        let case = |input: &str, answer: &str| DraftCase {
            name: None,
            input: input.as_bytes().to_vec(),
            answer: answer.as_bytes().to_vec(),
            sample: false,
        };
        let draft = Draft {
            origin: "a test".into(),
            id: "square".into(),
            title: "Square".into(),
            url: None,
            contest: None,
            time: None,
            memory_bytes: None,
            checker: Default::default(),
            interactor: None,
            io: Default::default(),
            cases: vec![case("1\n", "1\n"), case("2\n", "4\n"), case("3\n", "9\n")],
            interactions: Vec::new(),
            solutions: Vec::new(),
            notes: Vec::new(),
        };
        let plan = plan_cases(dir.path(), &draft).unwrap();
        let names: Vec<&str> = plan.writes.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["2", "3"]);
        plan.write(dir.path()).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("2.in")).unwrap(),
            "2\n"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("3.out")).unwrap(),
            "9\n"
        );
        assert!(plan_cases(dir.path(), &draft).unwrap().writes.is_empty());
    }
}
