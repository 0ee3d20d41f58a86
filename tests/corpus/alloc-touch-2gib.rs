// expect: MLE
// why: allocates 2 GiB in 64 MiB chunks and writes to every page, so resident memory passes 64 MiB early on.
fn main() {
    const CHUNK: usize = 64 << 20;
    let mut chunks: Vec<Vec<u8>> = Vec::new();
    for _ in 0..32 {
        let mut chunk = vec![0u8; CHUNK];
        for i in (0..CHUNK).step_by(4096) {
            chunk[i] = 1;
        }
        chunks.push(std::hint::black_box(chunk));
    }
    println!("42");
}
