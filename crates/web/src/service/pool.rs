//! The service's judges: `--jobs` threads, each with a judge of its own (its runner, its slot,
//! its scratch folder; the build cache on disk is shared), and a bounded wait in front of them.
//! A request past the bound is refused at once (`Busy`, a 429 to the client), never left to
//! time out.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};

use judge_core::session::Judge;

/// Work for a judge: run on one of the pool's threads with that thread's judge (`None` when
/// the judge could not be made, with why).
pub type Job = Box<dyn FnOnce(Result<&mut Judge, &str>) + Send>;

/// Makes a thread's judge on that thread, with what stops the program it runs.
pub type MakeJudge = Arc<dyn Fn() -> Result<(Judge, Stop), String> + Send + Sync>;

/// Stops the program a judge runs now (its runners are stopped: the judge is not used again).
pub type Stop = Arc<dyn Fn() + Send + Sync>;

/// A job's course, shared by the request that waits for it and the thread that runs it: a
/// request whose client went away withdraws its job, which then never starts, or has its
/// program stopped.
#[derive(Clone, Default)]
pub struct Ticket(Arc<Mutex<Course>>);

#[derive(Default)]
enum Course {
    #[default]
    Waiting,
    Running(Stop),
    Withdrawn,
    Done,
}

impl Ticket {
    /// The client is gone: the job is not started, or its program is stopped.
    pub fn withdraw(&self) {
        let Ok(mut course) = self.0.lock() else {
            return;
        };
        if let Course::Running(stop) = &*course {
            stop();
        }
        if !matches!(*course, Course::Done) {
            *course = Course::Withdrawn;
        }
    }

    /// Whether the job may start (it was not withdrawn), noting how its program is stopped.
    fn start(&self, stop: Option<&Stop>) -> bool {
        let Ok(mut course) = self.0.lock() else {
            return true;
        };
        match (&*course, stop) {
            (Course::Withdrawn, _) => false,
            (_, Some(stop)) => {
                *course = Course::Running(stop.clone());
                true
            }
            _ => true,
        }
    }

    /// The job is over: a later withdrawal stops nothing (the judge has gone on to other
    /// jobs). Whether it was withdrawn before (its judge's runners may have been stopped).
    fn finish(&self) -> bool {
        let Ok(mut course) = self.0.lock() else {
            return false;
        };
        let withdrawn = matches!(*course, Course::Withdrawn);
        *course = Course::Done;
        withdrawn
    }
}

/// The pool is full: `--jobs` running and `--queue` waiting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Busy;

/// What the pool holds now, for `/health` and `/metrics`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Load {
    pub running: usize,
    pub waiting: usize,
    pub jobs: usize,
    pub queue: usize,
}

pub struct Pool {
    send: Mutex<Sender<(Job, Ticket)>>,
    /// Admitted and not finished: running and waiting together.
    admitted: Arc<AtomicUsize>,
    running: Arc<AtomicUsize>,
    jobs: usize,
    queue: usize,
}

impl Pool {
    /// Starts `jobs` threads (at least one), each making its judge with `make` on its first job.
    pub fn start(jobs: usize, queue: usize, make: MakeJudge) -> Pool {
        let jobs = jobs.max(1);
        let (send, receive) = mpsc::channel::<(Job, Ticket)>();
        let receive = Arc::new(Mutex::new(receive));
        let admitted = Arc::new(AtomicUsize::new(0));
        let running = Arc::new(AtomicUsize::new(0));
        for i in 0..jobs {
            let (receive, make) = (receive.clone(), make.clone());
            let (admitted, running) = (admitted.clone(), running.clone());
            std::thread::Builder::new()
                .name(format!("judge-{i}"))
                .spawn(move || work(&receive, &make, &admitted, &running))
                .expect("a thread of the service's pool starts");
        }
        Pool {
            send: Mutex::new(send),
            admitted,
            running,
            jobs,
            queue,
        }
    }

    /// Hands `job` to a free judge, or queues it; `Busy` when `jobs + queue` are admitted.
    pub fn submit(&self, job: Job) -> Result<(), Busy> {
        self.submit_withdrawable(job, Ticket::default())
    }

    /// [`Pool::submit`], with the `ticket` by which the job is withdrawn.
    pub fn submit_withdrawable(&self, job: Job, ticket: Ticket) -> Result<(), Busy> {
        self.submit_all(vec![(job, ticket)])
    }

    /// Admits all of `jobs` or none (a batch takes as many places as it has requests): `Busy`
    /// when they do not all fit in `jobs + queue` beside those admitted.
    pub fn submit_all(&self, jobs: Vec<(Job, Ticket)>) -> Result<(), Busy> {
        let (cap, n) = (self.jobs + self.queue, jobs.len());
        let admitted = self
            .admitted
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |a| {
                (a + n <= cap).then_some(a + n)
            });
        if admitted.is_err() {
            return Err(Busy);
        }
        let Ok(send) = self.send.lock() else {
            self.admitted.fetch_sub(n, Ordering::SeqCst);
            return Err(Busy);
        };
        let mut left = n;
        for job in jobs {
            // A job sent is the thread's to count down; only those never sent are taken back.
            if send.send(job).is_err() {
                break;
            }
            left -= 1;
        }
        if left > 0 {
            self.admitted.fetch_sub(left, Ordering::SeqCst);
            return Err(Busy);
        }
        Ok(())
    }

    /// How many requests the pool takes at once: `jobs + queue`.
    pub fn places(&self) -> usize {
        self.jobs + self.queue
    }

    pub fn load(&self) -> Load {
        let admitted = self.admitted.load(Ordering::SeqCst);
        let running = self.running.load(Ordering::SeqCst);
        Load {
            running,
            waiting: admitted.saturating_sub(running),
            jobs: self.jobs,
            queue: self.queue,
        }
    }
}

/// A pool thread: takes jobs one at a time and runs each with its judge.
fn work(
    receive: &Mutex<Receiver<(Job, Ticket)>>,
    make: &MakeJudge,
    admitted: &AtomicUsize,
    running: &AtomicUsize,
) {
    let mut judge: Option<Result<(Judge, Stop), String>> = None;
    loop {
        let next = match receive.lock() {
            Ok(r) => r.recv(),
            Err(_) => return,
        };
        let Ok((job, ticket)) = next else {
            return;
        };
        running.fetch_add(1, Ordering::SeqCst);
        // A judge that could not be made is made again for the next job: the cause (a runner
        // that could not start) may have passed.
        if !matches!(judge, Some(Ok(_))) {
            judge = Some(make());
        }
        let stop = judge.as_ref().and_then(|j| j.as_ref().ok()).map(|j| &j.1);
        if ticket.start(stop) {
            let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                match judge.as_mut().expect("made above") {
                    Ok((j, _)) => job(Ok(j)),
                    Err(why) => job(Err(why.as_str())),
                }
            }));
            // A job that panicked may have left its judge half way, and one withdrawn while
            // it ran had its runners stopped: the next job gets a new judge (the client's
            // answer was dropped with the job, which it hears as a failed request).
            if ticket.finish() || done.is_err() {
                judge = None;
            }
        }
        running.fetch_sub(1, Ordering::SeqCst);
        admitted.fetch_sub(1, Ordering::SeqCst);
    }
}
