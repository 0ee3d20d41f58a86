// Generator for `judge stress`: `gen SEED [SIZE]` prints one input, two integers of absolute
// value at most SIZE (default 1000000000). The same seed always gives the same input.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).expect("usage: gen SEED [SIZE]");
    let size: i64 = args.get(2).map_or(1_000_000_000, |s| s.parse().expect("SIZE: an integer"));
    let mut state = seed;
    let mut draw = || {
        state = splitmix64(state);
        (state % (2 * size as u64 + 1)) as i64 - size
    };
    println!("{} {}", draw(), draw());
}

/// SplitMix64: a well-mixed 64-bit number from the previous one, std only.
fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
