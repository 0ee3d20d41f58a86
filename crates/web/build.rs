//! KaTeX, which `judge serve` uses to draw a statement's math, served by the judge itself: a
//! pinned release is fetched once from the npm registry into a cache outside the repository,
//! its SHA-512 checked, and the files the pages use (the script, the stylesheet, the woff2
//! fonts) unpacked into OUT_DIR, where the crate includes them. No KaTeX code is kept in the
//! repository. Offline, `JUDGE_KATEX_TGZ=PATH` names the release's tarball instead.

use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha512};

const VERSION: &str = "0.16.22";
/// The SHA-512 of `katex-0.16.22.tgz` as the npm registry serves it (its `dist.integrity`).
const SHA512: &str = "5c21d1754c3895fdd22816897b812f82a22e5b090f4a8f57a1e3bc1a3416f78069ed35aff61361cd98d9f8e1fdc9fd5498bca06fb0c84f91921508b2b75eb362";

fn main() {
    println!("cargo:rerun-if-env-changed=JUDGE_KATEX_TGZ");
    println!("cargo:rerun-if-changed=build.rs");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let tgz = tarball();
    let dir = out.join("katex");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creating OUT_DIR/katex");
    let status = Command::new("tar")
        .arg("-xzf")
        .arg(&tgz)
        .arg("-C")
        .arg(&dir)
        .args([
            "package/dist/katex.min.js",
            "package/dist/katex.min.css",
            "package/dist/fonts",
        ])
        .status()
        .expect("running tar to unpack KaTeX");
    assert!(status.success(), "tar could not unpack {}", tgz.display());
    let dist = dir.join("package/dist");
    let mut files = vec![
        (
            "katex.min.js".to_string(),
            "text/javascript; charset=utf-8",
            dist.join("katex.min.js"),
        ),
        (
            "katex.min.css".to_string(),
            "text/css; charset=utf-8",
            dist.join("katex.min.css"),
        ),
    ];
    let mut fonts: Vec<PathBuf> = std::fs::read_dir(dist.join("fonts"))
        .expect("KaTeX's fonts")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "woff2"))
        .collect();
    fonts.sort();
    for f in fonts {
        let name = format!("fonts/{}", f.file_name().unwrap().to_string_lossy());
        files.push((name, "font/woff2", f));
    }
    let mut code = format!("/// The KaTeX release served.\npub const VERSION: &str = {VERSION:?};\n/// Its files: the path under /static/katex/, the content type, the bytes.\npub const FILES: &[(&str, &str, &[u8])] = &[\n");
    for (name, mime, path) in files {
        code.push_str(&format!(
            "    ({name:?}, {mime:?}, include_bytes!({:?})),\n",
            path.display().to_string()
        ));
    }
    code.push_str("];\n");
    std::fs::write(out.join("katex.rs"), code).expect("writing katex.rs");
}

/// The release's tarball, checked: `JUDGE_KATEX_TGZ`, or the cached copy, or fetched anew.
fn tarball() -> PathBuf {
    if let Some(given) = std::env::var_os("JUDGE_KATEX_TGZ") {
        let given = PathBuf::from(given);
        check(&given).unwrap_or_else(|why| panic!("JUDGE_KATEX_TGZ: {why}"));
        return given;
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir)
        .join("judge-build");
    let cached = cache.join(format!("katex-{VERSION}.tgz"));
    if check(&cached).is_ok() {
        return cached;
    }
    std::fs::create_dir_all(&cache).expect("creating the build cache");
    let part = cache.join(format!("katex-{VERSION}.tgz.part"));
    let url = format!("https://registry.npmjs.org/katex/-/katex-{VERSION}.tgz");
    let fetched = Command::new("curl")
        .args(["-fsSL", "--retry", "3", "-o"])
        .arg(&part)
        .arg(&url)
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !fetched {
        panic!(
            "KaTeX {VERSION} could not be fetched from the npm registry ({url}) with curl\n  fix: connect once (it is cached in {}), or set JUDGE_KATEX_TGZ to that tarball",
            cache.display()
        );
    }
    check(&part).unwrap_or_else(|why| panic!("{url}: {why}"));
    std::fs::rename(&part, &cached).expect("keeping KaTeX in the build cache");
    cached
}

/// Whether `path` is the pinned release, by its SHA-512.
fn check(path: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let hex: String = Sha512::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if hex == SHA512 {
        Ok(())
    } else {
        Err(format!(
            "{} is not KaTeX {VERSION}: its SHA-512 differs",
            path.display()
        ))
    }
}
