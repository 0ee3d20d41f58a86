//! `judge serve` in a real browser: headless Chromium driven through chromedriver (WebDriver),
//! as a user would click. A screenshot of each page is kept under the target folder
//! (`target/tmp/serve-screenshots/`).

use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;

use crate::common::serve::Serving;
use crate::common::{Running, Test, READ_N};

/// A chromedriver on a free port: stopped when dropped.
struct Driver {
    _driver: Running,
    port: u16,
}

impl Driver {
    fn start() -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        // Needs chromedriver (Debian: apt-get install chromium-driver).
        let driver = Test::program("chromedriver")
            .arg(format!("--port={port}"))
            .spawn();
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        Driver {
            _driver: driver,
            port,
        }
    }
}

/// Chromium on PATH, under one of its names.
fn chromium() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .flat_map(|d| ["chromium", "chromium-browser", "google-chrome"].map(|n| d.join(n)))
        .find(|p| p.is_file())
        .expect("needs chromium (Debian: apt-get install chromium)")
}

async fn browser(driver: &Driver) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": chromium(),
            "args": ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1100,900"],
        }),
    );
    ClientBuilder::new(HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a WebDriver session")
}

/// Saves a screenshot of the page as `NAME.png` in the screenshots folder.
async fn shot(c: &Client, name: &str) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("serve-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let png = c.screenshot().await.unwrap();
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
}

/// Waits until the page's path starts with `prefix`.
async fn wait_for_path(c: &Client, prefix: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let url = c.current_url().await.unwrap();
        if url.path().starts_with(prefix) {
            return url.path().to_string();
        }
        assert!(
            Instant::now() < deadline,
            "still at {url} (waiting for {prefix})"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn select(c: &Client, css: &str, value: &str) {
    let element = c.find(Locator::Css(css)).await.unwrap();
    element.select_by_value(value).await.unwrap();
}

async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// The text of the element `css` finds, waiting for it a while (a live page may be replacing
/// it just then).
async fn text(c: &Client, css: &str) -> String {
    // Found again when the live page replaced it between finding and reading.
    for _ in 0..20 {
        let element = c
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"));
        match element.text().await {
            Ok(text) => return text,
            Err(e) if e.to_string().contains("stale element") => {
                tokio::time::sleep(Duration::from_millis(100)).await
            }
            Err(e) => panic!("{css}: {e}"),
        }
    }
    panic!("{css} kept being replaced while it was read")
}

#[test]
#[cfg_attr(
    not(all(judge_has_chromium, judge_has_chromedriver)),
    ignore = "needs chromium and chromedriver (Debian: apt-get install chromium chromium-driver)"
)]
fn in_a_browser_a_wrong_submission_shows_wa_with_its_diff_then_a_right_one_ac() {
    let ws = crate::serve::workspace();
    // A solution whose time grows as n²: the matrix has a relative speed, the chart a slope.
    ws.write(
        "solutions/double/quadratic.rs",
        format!("{READ_N}fn main() {{ let n = n(); let mut x = 0u64; for i in 0..n * n {{ x = std::hint::black_box(x ^ i); }} std::hint::black_box(x); println!(\"{{}}\", n * 2); }}\n"),
    );
    let server = Serving::start(ws.path());
    let driver = Driver::start();
    let base = server.base();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let c = browser(&driver).await;
        c.goto(&format!("{base}/?token={}", server.token))
            .await
            .unwrap();
        wait_for_path(&c, "/status").await;
        c.goto(&format!("{base}/problems")).await.unwrap();
        shot(&c, "problems").await;
        c.goto(&format!("{base}/problems/double")).await.unwrap();
        assert!(text(&c, ".statement").await.contains("1 ≤ n ≤ 109"));
        shot(&c, "problem").await;

        // Pasted wrong code: the run page follows it, then the submission's page shows the WA.
        c.goto(&format!("{base}/submit?problem=double"))
            .await
            .unwrap();
        let wrong = format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2 + 1); }}\n");
        select(&c, "#language", "rust").await;
        c.find(Locator::Css("#code"))
            .await
            .unwrap()
            .send_keys(&wrong)
            .await
            .unwrap();
        shot(&c, "submit").await;
        click(&c, "#submit").await;
        assert_eq!(wait_for_path(&c, "/submissions/").await, "/submissions/1");
        assert_eq!(
            text(&c, "table.status .verdict").await,
            "Wrong answer on test 1"
        );
        let marked = text(&c, "pre.diff mark").await;
        assert_eq!(marked, "2", "42 expected, 43 received: marked from the 2");
        shot(&c, "submission-wa").await;

        // The status page updates by itself when a run from the terminal finishes.
        c.goto(&format!("{base}/status")).await.unwrap();
        c.execute("window.untouched = true;", vec![]).await.unwrap();
        // The page is following the events by then: the AC can only come through them.
        tokio::time::sleep(Duration::from_secs(1)).await;
        ws.judge().args(["run", "ok"]).expect_exit(0).run();
        let deadline = Instant::now() + Duration::from_secs(30);
        while c
            .find_all(Locator::Css("[data-live-status] .verdict.ac"))
            .await
            .unwrap()
            .is_empty()
        {
            assert!(
                Instant::now() < deadline,
                "the terminal's AC did not appear"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let untouched = c
            .execute("return window.untouched === true;", vec![])
            .await
            .unwrap();
        assert_eq!(
            untouched,
            serde_json::json!(true),
            "updated without a reload"
        );
        shot(&c, "status").await;

        // A solution of the workspace, chosen from the list: AC.
        c.goto(&format!("{base}/submit")).await.unwrap();
        select(&c, "#solution", "double/ok").await;
        click(&c, "#submit").await;
        assert_eq!(wait_for_path(&c, "/submissions/").await, "/submissions/3");
        assert_eq!(text(&c, "table.status .verdict").await, "Accepted");
        shot(&c, "submission-ac").await;

        // The matrix of every solution, and the growth chart.
        c.goto(&format!("{base}/compare?problem=double"))
            .await
            .unwrap();
        click(&c, "#start").await;
        c.wait()
            .at_most(Duration::from_secs(120))
            .for_element(Locator::Css("table.matrix"))
            .await
            .unwrap();
        shot(&c, "compare").await;
        // Only accepted solutions are ranked by speed; `off` (WA) is listed apart.
        let ranked = text(&c, "ul.speed").await;
        assert!(!ranked.contains("off"), "{ranked}");
        let apart = text(&c, "ul.not-ranked").await;
        assert!(
            apart.contains("off") && apart.contains("Wrong answer"),
            "{apart}"
        );
        // The sizes come prefilled from the address.
        c.goto(&format!(
            "{base}/scale?problem=double&sizes=1000,2000,4000,8000,16000"
        ))
        .await
        .unwrap();
        click(&c, "#start").await;
        c.wait()
            .at_most(Duration::from_secs(120))
            .for_element(Locator::Css("figure.chart svg"))
            .await
            .unwrap();
        shot(&c, "scale").await;

        // On a phone-sized window.
        c.set_window_size(390, 844).await.unwrap();
        c.goto(&format!("{base}/status")).await.unwrap();
        shot(&c, "status-phone").await;
        c.goto(&format!("{base}/submissions/1")).await.unwrap();
        shot(&c, "submission-phone").await;
        c.close().await.unwrap();
    });
}

#[test]
#[cfg_attr(
    not(all(judge_has_chromium, judge_has_chromedriver)),
    ignore = "needs chromium and chromedriver (Debian: apt-get install chromium chromium-driver)"
)]
fn in_a_browser_a_latex_statement_s_math_is_drawn_by_the_judge_s_own_katex() {
    let f = crate::formats::Fixture::new("everything");
    f.judge()
        .args(["generate", "everything"])
        .expect_exit(0)
        .run();
    let server = Serving::start_as(f.judge(), &["everything"]);
    let driver = Driver::start();
    let base = server.base();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let c = browser(&driver).await;
        c.goto(&format!("{base}/problems/everything")).await.unwrap();
        // KaTeX, served by the judge, replaced each formula's text with its own markup.
        c.wait()
            .at_most(Duration::from_secs(30))
            .for_element(Locator::Css(".statement .katex"))
            .await
            .unwrap();
        let drawn = c
            .find_all(Locator::Css(".statement .katex"))
            .await
            .unwrap()
            .len();
        let formulas = c
            .find_all(Locator::Css(".statement [data-tex]"))
            .await
            .unwrap()
            .len();
        assert!(formulas >= 5, "{formulas} formulas");
        assert_eq!(drawn, formulas, "every formula drawn");
        // Its fonts came from the judge too: the document has them loaded.
        let fonts = c
            .execute(
                "await document.fonts.ready; return [...document.fonts].filter(f => f.status === 'loaded' && f.family.startsWith('KaTeX')).length;",
                vec![],
            )
            .await
            .unwrap();
        assert!(fonts.as_u64().unwrap() >= 1, "{fonts}");
        assert!(text(&c, ".statement").await.contains("1000000"));
        c.find(Locator::Css("figure.illustration img"))
            .await
            .unwrap();
        shot(&c, "problem-latex").await;
        c.close().await.unwrap();
    });
}

/// A browser session on `server`, opened with its token: `act` drives it, then it is closed.
fn in_browser<F, Fut>(server: &Serving, act: F)
where
    F: FnOnce(Client, String) -> Fut,
    Fut: std::future::Future<Output = Client>,
{
    let driver = Driver::start();
    let base = server.base();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let c = browser(&driver).await;
        c.goto(&format!("{base}/?token={}", server.token))
            .await
            .unwrap();
        wait_for_path(&c, "/status").await;
        let c = act(c, base).await;
        c.close().await.unwrap();
    });
}

#[test]
#[cfg_attr(
    not(all(judge_has_chromium, judge_has_chromedriver)),
    ignore = "needs chromium and chromedriver (Debian: apt-get install chromium chromium-driver)"
)]
fn in_a_browser_a_tle_shows_the_limit_passed_and_a_problem_reads_once() {
    let ws = crate::serve::workspace();
    ws.write(
        "problems/double/statement.md",
        "# Double\n\nPrint $2n$.\n\n## Examples\n\nInput:\n\n```\n21\n```\n\nOutput:\n\n```\n42\n```\n",
    );
    ws.write(
        "problems/double/problem.toml",
        "title = \"Double\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\nsamples = [\"1\"]\n",
    );
    ws.write(
        "solutions/double/spin.rs",
        format!("{READ_N}fn main() {{ let mut x = n(); loop {{ x = std::hint::black_box(x.wrapping_mul(3)); }} }}\n"),
    );
    // A TLE from the terminal: its second case runs under the shorter cap, and is not timed.
    ws.judge()
        .args(["run", "spin"])
        .expect_exit(1)
        .stdout_has("not timed")
        .run();
    let server = Serving::start(ws.path());
    in_browser(&server, |c, base| async move {
        let row = text(&c, "table.status tbody tr").await;
        assert!(
            row.contains("spin") && row.contains("Time limit exceeded"),
            "{row}"
        );
        // The limit passed, not a time measured past it.
        let time = text(&c, "table.status tbody tr td.num").await;
        assert_eq!(time, "> 1 s", "{row}");
        shot(&c, "status-tle").await;
        c.goto(&format!("{base}/submissions/1")).await.unwrap();
        assert_eq!(text(&c, "#case-1 td.num").await, "> 1 s");
        let page = text(&c, "main").await;
        assert!(page.contains("Not timed"), "{page}");
        let not_timed = text(&c, "#not-timed").await;
        assert!(
            not_timed.contains("2 (") && not_timed.contains("--full"),
            "{not_timed}"
        );

        // The statement shows the title and its examples: the page repeats neither.
        c.goto(&format!("{base}/problems/double")).await.unwrap();
        let headings = c.find_all(Locator::Css("h1")).await.unwrap();
        assert_eq!(headings.len(), 1, "one title");
        assert!(c
            .find_all(Locator::Css(".statement h1"))
            .await
            .unwrap()
            .is_empty());
        assert!(text(&c, ".statement").await.contains("Examples"));
        let page = text(&c, "main").await;
        assert!(!page.contains("Samples"), "{page}");
        shot(&c, "problem-once").await;
        c
    });
}

#[test]
#[cfg_attr(
    not(all(judge_has_chromium, judge_has_chromedriver)),
    ignore = "needs chromium and chromedriver (Debian: apt-get install chromium chromium-driver)"
)]
fn in_a_browser_pasted_python_is_judged_as_python_and_kept_apart_from_the_solutions() {
    let ws = crate::serve::workspace();
    let solutions = crate::common::snapshot(&ws.path().join("solutions"));
    let server = Serving::start(ws.path());
    in_browser(&server, |c, base| async move {
        // No language chosen: the form leaves it to the code.
        c.goto(&format!("{base}/submit?problem=double"))
            .await
            .unwrap();
        let chosen = c
            .find(Locator::Css("#language"))
            .await
            .unwrap()
            .prop("value")
            .await
            .unwrap();
        assert_eq!(chosen.as_deref(), Some("auto"));
        c.find(Locator::Css("#code"))
            .await
            .unwrap()
            .send_keys("n = int(input())\nprint(2 * n)\n")
            .await
            .unwrap();
        shot(&c, "submit-python").await;
        click(&c, "#submit").await;
        wait_for_path(&c, "/submissions/").await;
        assert_eq!(text(&c, "table.status .verdict").await, "Accepted");
        assert_eq!(text(&c, "table.status td.lang").await, "python");
        let pasted = text(&c, "#pasted").await;
        assert!(
            pasted.contains(".judge/pastes/double/pasted-1.py"),
            "{pasted}"
        );
        shot(&c, "submission-pasted").await;
        // The form lists the workspace's solutions only.
        c.goto(&format!("{base}/submit")).await.unwrap();
        let listed = text(&c, "#solution").await;
        assert!(!listed.contains("pasted-"), "{listed}");
        c
    });
    assert_eq!(
        crate::common::snapshot(&ws.path().join("solutions")),
        solutions,
        "a paste is never among the solutions"
    );
}
