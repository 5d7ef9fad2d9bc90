import KeyPathBackend
import ObservationCore
import Testing

/// The KVO example from Foundation, on Linux, with plain Swift classes.
@Suite("Key-path observation")
struct KeyPathObservationTests {
  final class Player: KeyPathObservable {
    let keyPathRegistrar = KeyPathRegistrar()
    @Tracked var videoTitle: String
    init(videoTitle: String) { _videoTitle = Tracked(wrappedValue: videoTitle) }
  }

  final class PlaybackController: KeyPathObservable {
    let keyPathRegistrar = KeyPathRegistrar()
    @Tracked var player: Player?
    init(player: Player?) { _player = Tracked(wrappedValue: player) }
  }

  final class ViewController: KeyPathObservable {
    let keyPathRegistrar = KeyPathRegistrar()
    @Tracked var playbackController: PlaybackController?
    init(playbackController: PlaybackController?) {
      _playbackController = Tracked(wrappedValue: playbackController)
    }
  }

  @Test("The KVO snippet: nested optional key path, intermediate replaced, then nil")
  func kvoSnippet() {
    let first = PlaybackController(player: Player(videoTitle: "Intro"))
    let viewController = ViewController(playbackController: first)
    var titles: [String?] = []
    var token: KeyPathObservation?
    token = viewController.observe(\.playbackController?.player?.videoTitle, options: [.initial]) {
      vc, change in
      titles.append(vc.playbackController?.player?.videoTitle)
    }
    #expect(titles == ["Intro"])

    first.player?.videoTitle = "Chapter 1"
    #expect(titles == ["Intro", "Chapter 1"])

    // Replace an intermediate: the binding moves at once; the old subtree falls silent.
    let second = PlaybackController(player: Player(videoTitle: "Trailer"))
    viewController.playbackController = second
    #expect(titles == ["Intro", "Chapter 1", "Trailer"])
    first.player?.videoTitle = "stale"
    #expect(titles.count == 3)

    // Replace a deeper intermediate.
    second.player = Player(videoTitle: "Credits")
    #expect(titles.last == "Credits")

    // An intermediate becomes nil: nil once, then silence from the old objects.
    viewController.playbackController = nil
    #expect(titles.last == .some(nil))
    let countAfterNil = titles.count
    second.player?.videoTitle = "ignored"
    #expect(titles.count == countAfterNil)

    // Re-attach: resumes with the current leaf.
    viewController.playbackController = second
    #expect(titles.last == "ignored")

    token?.cancel()
    token = nil
    second.player?.videoTitle = "after cancel"
    #expect(titles.last == "ignored")
    #expect(viewController.keyPathRegistrar.observerCount == 0)
    #expect(second.keyPathRegistrar.observerCount == 0)
  }

  @Test("Options: .new and .old fill the change, .prior adds a call before it")
  func options() {
    let player = Player(videoTitle: "a")
    var changes: [(new: String?, old: String?, prior: Bool)] = []
    let token = player.observe(\.videoTitle, options: [.new, .old, .prior]) { _, change in
      changes.append((change.newValue, change.oldValue, change.isPrior))
    }
    player.videoTitle = "b"
    #expect(changes.count == 2)
    #expect(changes[0].prior && changes[0].new == nil && changes[0].old == "a")
    #expect(!changes[1].prior && changes[1].new == "b" && changes[1].old == "a")
    withExtendedLifetime(token) {}
  }

  @Test(
    "An observation of one tracked property gets each write made from a callback, not the last one twice"
  )
  func queuedWritesCarryTheirValues() {
    // Found by DIFF-01's aggregate scripts: the writes made from an `.initial` callback wait
    // for it, and an observation that read the property again when their turn came got "d"
    // twice and never "c".
    let player = Player(videoTitle: "a")
    var titles: [String] = []
    let listener = player.observe(\.videoTitle, options: [.new]) { _, change in
      titles.append(change.newValue!)
    }
    let writer = player.observe(\.videoTitle, options: [.initial]) { player, _ in
      guard player.videoTitle == "a" else { return }
      player.videoTitle = "c"
      player.videoTitle = "d"
    }
    #expect(titles == ["c", "d"])
    withExtendedLifetime((listener, writer)) {}
  }

  @Test("Observing registers with exactly the objects on the path, and moves with it")
  func registrationsFollowThePath() {
    let oldPlayer = Player(videoTitle: "a")
    let controller = PlaybackController(player: oldPlayer)
    let viewController = ViewController(playbackController: controller)
    let token = viewController.observe(\.playbackController?.player?.videoTitle) { _, _ in }
    #expect(token.registrationCount == 3)
    #expect(oldPlayer.keyPathRegistrar.observerCount == 1)
    controller.player = nil
    #expect(token.registrationCount == 2)
    #expect(oldPlayer.keyPathRegistrar.observerCount == 0)
    withExtendedLifetime(token) {}
  }

  @Test("The observation releases its handler when the observed object goes away")
  func releasesHandlerWithRoot() {
    final class Canary {}
    var player: Player? = Player(videoTitle: "a")
    var canary: Canary? = Canary()
    weak let watched = canary
    let token = player!.observe(\.videoTitle) { [canary] _, _ in _ = canary }
    canary = nil
    player = nil
    #expect(watched == nil)
    token.cancel()
  }
}
