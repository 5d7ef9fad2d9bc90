import ObservationCore

extension MemoryRules {
  /// MEM-08 (suite 1.7.0): the work a write schedules for later (a job on a loop, a task, a
  /// timer) against the lifetimes of the subject and of the observers.
  static let scheduledWorkRules: [ConformanceRule] = [
    ConformanceRule(
      "MEM-08", .required,
      title: "work a write scheduled for later neither outlives the subject nor outruns a cancel",
      intent: "MEM-02 to MEM-04 release a subject with nothing pending. A backend that delivers"
        + " later keeps a job, a task or a timer per write; released with such work waiting,"
        + " the subject and the handlers must still go once that work has run, and a token"
        + " cancelled after its subject died must still stop its observer, or a view's"
        + " deinit that cancels after its model went gets one more callback.",
    ) { context in
      var verdict = Verdict()
      let immediate = context.has(.immediateCancellation)
      var subject: TestSubject<Int>? = context.subject(0)
      weak let watchedSubject = subject!.lifetime
      var canary: Canary? = Canary()
      weak let watchedCanary = canary
      let recorder = Recorder<Int>()
      // Observer #0's callbacks after its cancel returned, with their values.
      let cancelReturned = Locked(false)
      let afterCancel = Locked<[Int]>([])
      var tokens: [AnyObservationToken] = (0..<3).map { id in
        subject!.observe(
          recorder.handler(id) { [canary] value in
            canary?.touch()
            if id == 0 && cancelReturned.withLock({ $0 }) {
              afterCancel.withLock { $0.append(value) }
            }
          })
      }
      canary = nil
      context.drain()
      context.forget(recorder)
      subject!.value = 1
      subject!.value = 2
      let pending = recorder.count == 0
      // The rule's last reference to the subject goes with the writes still waiting (on a
      // backend that delivers later); then #0 is cancelled, after its subject died.
      subject = nil
      tokens[0].cancel()
      cancelReturned.withLock { $0 = true }
      context.drain()
      let action =
        "3 observers capturing an object; set 1, set 2"
        + (pending ? " (not delivered yet)" : "")
        + ", release the subject, then cancel #0, and give the backend its turns"
      if immediate {
        let late = afterCancel.withLock { $0 }
        verdict.expect(
          late.isEmpty, action,
          expected: "nothing reaches #0 after its cancel returned (immediateCancellation), though"
            + " its subject was gone",
          observed: "it received \(late)")
      }
      for token in tokens { token.cancel() }
      tokens = []
      context.drain()
      let released = "cancel the others, release every token and give the backend its turns"
      verdict.expect(
        watchedSubject == nil, action + "; " + released,
        expected: "the subject is deallocated",
        observed: "it is still alive (held by work it scheduled?)")
      verdict.expect(
        watchedCanary == nil, action + "; " + released,
        expected: "every handler's captured object is released", observed: "it is still alive")
      verdict.note(
        pending
          ? "the writes were still waiting when the subject was released"
          : "the backend delivered both writes before set returned: nothing was waiting")
      return verdict.result
    }
  ]
}
