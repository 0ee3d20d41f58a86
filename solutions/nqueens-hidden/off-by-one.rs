// Hidden Queens: keeps the columns found in a vector of n slots, and writes one past its end
// before asking anything (an off-by-one).
// Expected verdict: Runtime Error (it panics first; the interactor then sees the
// conversation end and rejects it, but after the crash, which decides).

fn main() {
    let mut line = String::new();
    std::io::stdin().read_line(&mut line).unwrap();
    let n: usize = line.trim().parse().unwrap();
    let mut columns = vec![0usize; n];
    columns[n] = 1;
    println!("! {}", columns[0]);
}
