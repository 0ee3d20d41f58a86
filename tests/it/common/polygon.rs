//! A Polygon interactive package's `problem.xml`, written by the tests that build one (judged in
//! place, imported): one place for the format, each test its own problem.

/// What differs between the interactive packages the tests build.
pub(crate) struct InteractiveXml<'a> {
    pub(crate) short_name: &'a str,
    pub(crate) title: &'a str,
    pub(crate) time_ms: u64,
    /// The number of tests; the first is the sample.
    pub(crate) tests: usize,
    /// Header files under `files/` listed as resources.
    pub(crate) resources: &'a [&'a str],
    /// Each solution's path, tag and Polygon type (`cpp.g++17`, `python.3`).
    pub(crate) solutions: &'a [(&'a str, &'a str, &'a str)],
}

/// The `problem.xml` of a package with a testlib checker `files/check.cpp` and an interactor
/// `files/interactor.cpp`, its tests in `tests/NN` with answers in `tests/NN.a`.
pub(crate) fn interactive_xml(p: &InteractiveXml) -> String {
    let tests: String = (0..p.tests)
        .map(|i| {
            let sample = if i == 0 { " sample=\"true\"" } else { "" };
            format!("        <test method=\"manual\"{sample}/>\n")
        })
        .collect();
    let resources: String = p
        .resources
        .iter()
        .map(|f| format!("      <file path=\"files/{f}\" type=\"h.g++\"/>\n"))
        .collect();
    let solutions: String = p
        .solutions
        .iter()
        .map(|(path, tag, kind)| {
            format!("      <solution tag=\"{tag}\">\n        <source path=\"{path}\" type=\"{kind}\"/>\n      </solution>\n")
        })
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="utf-8" standalone="no"?>
<problem revision="1" short-name="{short}">
  <names>
    <name language="english" value="{title}"/>
  </names>
  <judging input-file="" output-file="">
    <testset name="tests">
      <time-limit>{time}</time-limit>
      <memory-limit>268435456</memory-limit>
      <test-count>{count}</test-count>
      <input-path-pattern>tests/%02d</input-path-pattern>
      <answer-path-pattern>tests/%02d.a</answer-path-pattern>
      <tests>
{tests}      </tests>
    </testset>
  </judging>
  <files>
    <resources>
{resources}    </resources>
  </files>
  <assets>
    <checker name="check.cpp" type="testlib">
      <source path="files/check.cpp" type="cpp.g++17"/>
    </checker>
    <interactor>
      <source path="files/interactor.cpp" type="cpp.g++17"/>
    </interactor>
    <solutions>
{solutions}    </solutions>
  </assets>
</problem>
"#,
        short = p.short_name,
        title = p.title,
        time = p.time_ms,
        count = p.tests,
    )
}
