// expect: AC
// why: reads stdin to end of file, then reads again and gets nothing more (end of file must stay end of file, not hang), then prints 2n.
use std::io::Read;

fn main() {
    let mut first = String::new();
    std::io::stdin().read_to_string(&mut first).unwrap();
    let mut second = String::new();
    std::io::stdin().read_to_string(&mut second).unwrap();
    let n: i64 = first.trim().parse().unwrap();
    if second.is_empty() {
        println!("{}", 2 * n);
    } else {
        println!("second read returned {:?}", second);
    }
}
