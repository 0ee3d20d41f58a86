// expect: AC
// why: writes junk.txt in its working directory and ../junk-parent.txt (errors ignored), then prints 42; the answer stands, and the judge must leave no trace of either file.
fn main() {
    let _ = std::fs::write("junk.txt", "junk\n");
    let _ = std::fs::write("../junk-parent.txt", "junk\n");
    println!("42");
}
