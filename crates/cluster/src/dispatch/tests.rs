//! The dispatcher's notes and rules, without a server.

use super::*;

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn the_idle_note_says_which_worker_left_the_list() {
    let quiet = Duration::from_secs(40);
    let first = idle_note(None, &names(&["a"]), quiet).unwrap();
    assert!(first.contains("the workers (a) are busy"), "{first}");
    // Nothing changed, or a worker came: nothing more to say.
    assert_eq!(idle_note(Some(&names(&["a"])), &names(&["a"]), quiet), None);
    assert_eq!(
        idle_note(Some(&names(&["a"])), &names(&["a", "b"]), quiet),
        None
    );
    let gone = idle_note(Some(&names(&["a"])), &[], quiet).unwrap();
    assert!(gone.contains("worker a is no longer registered"), "{gone}");
    assert!(gone.contains("no worker is running now"), "{gone}");
    let one_left = idle_note(Some(&names(&["a", "b"])), &names(&["b"]), quiet).unwrap();
    assert!(one_left.contains("the workers left (b)"), "{one_left}");
}
