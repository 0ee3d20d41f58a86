// Generator of Hidden Queens inputs for `judge stress`: `gen SEED [SIZE]` prints one n,
// drawn uniformly from 1..=SIZE (default and at most 10, the problem's bound). The same
// seed always gives the same input.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = match args.get(1).map(|s| s.parse()) {
        Some(Ok(s)) => s,
        _ => {
            eprintln!("usage: gen SEED [SIZE]  (SEED: a non-negative integer)");
            std::process::exit(2);
        }
    };
    let size: u64 = match args.get(2).map(|s| s.parse::<u64>()) {
        None => 10,
        Some(Ok(s)) if s >= 1 => s.min(10),
        Some(_) => {
            eprintln!("SIZE must be an integer from 1 to 10");
            std::process::exit(2);
        }
    };
    let n = 1 + splitmix64(seed) % size;
    println!("{n}");
}

/// SplitMix64: one well-mixed 64-bit number per seed, std only.
fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
