import Testing

@testable import KeyPathBackend

/// `@WeakTracked`: a weak intermediate that deallocates is reported as `nil`.
@Suite("Weakly held intermediates")
struct WeakTrackedTests {
  typealias Player = KeyPathObservationTests.Player

  final class PlaybackController: KeyPathObservable {
    let keyPathRegistrar = KeyPathRegistrar()
    @WeakTracked var player: Player?
    init(player: Player?) { _player = WeakTracked(wrappedValue: player) }
  }

  final class ViewController: KeyPathObservable {
    let keyPathRegistrar = KeyPathRegistrar()
    @Tracked var playbackController: PlaybackController?
    init(playbackController: PlaybackController?) {
      _playbackController = Tracked(wrappedValue: playbackController)
    }
  }

  @Test("A weak intermediate that deallocates delivers nil once, with the old value")
  func deallocationDeliversNil() {
    var player: Player? = Player(videoTitle: "Intro")
    let controller = PlaybackController(player: player)
    let viewController = ViewController(playbackController: controller)
    var changes: [(new: String??, old: String??)] = []
    let token = viewController.observe(
      \.playbackController?.player?.videoTitle, options: [.initial, .new, .old]
    ) { _, change in changes.append((change.newValue, change.oldValue)) }
    #expect(changes.count == 1 && changes[0].new == .some("Intro"))

    player = nil
    #expect(changes.count == 2)
    #expect(changes.last?.new == .some(nil))
    #expect(changes.last?.old == .some("Intro"))
    #expect(controller.player == nil)

    // Holding a new player weakly rebinds as a write does.
    let next = Player(videoTitle: "Trailer")
    controller.player = next
    #expect(changes.last?.new == .some("Trailer"))
    next.videoTitle = "Credits"
    #expect(changes.last?.new == .some("Credits"))
    #expect(changes.count == 4)
    withExtendedLifetime(token) {}
  }

  @Test("An initial value is watched from its first use")
  func initialValueIsWatched() {
    var player: Player? = Player(videoTitle: "a")
    let controller = PlaybackController(player: player)
    var titles: [String?] = []
    let token = controller.observe(\.player?.videoTitle, options: [.initial, .new]) {
      _, change in titles.append(change.newValue ?? nil)
    }
    player = nil
    #expect(titles == ["a", nil])
    withExtendedLifetime(token) {}
  }

  @Test("A replaced referent, or a dead owner, leaves no handler behind")
  func handlersAreWithdrawn() {
    let first = Player(videoTitle: "a")
    let second = Player(videoTitle: "b")
    var controller: PlaybackController? = PlaybackController(player: nil)
    controller!.player = first
    #expect(first.keyPathRegistrar.deallocationHandlerCount == 1)
    controller!.player = second
    #expect(first.keyPathRegistrar.deallocationHandlerCount == 0)
    #expect(second.keyPathRegistrar.deallocationHandlerCount == 1)
    controller = nil
    #expect(second.keyPathRegistrar.deallocationHandlerCount == 0)
  }

  @Test("A referent replaced before it deallocates notifies nobody")
  func replacedReferentIsSilent() {
    var first: Player? = Player(videoTitle: "a")
    let second = Player(videoTitle: "b")
    let controller = PlaybackController(player: first)
    var titles: [String?] = []
    let token = controller.observe(\.player?.videoTitle, options: [.new]) { _, change in
      titles.append(change.newValue ?? nil)
    }
    controller.player = second
    first = nil
    #expect(titles == ["b"])
    withExtendedLifetime(token) {}
  }
}
