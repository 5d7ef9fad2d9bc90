import ObservationCore
import ObservationFixtures

/// KP: nested key paths, `root.controller?.player?.title`.
enum KeyPathRules {
  private static let noFixture =
    "the backend offers only Int subjects and no nested observation of its own"

  /// Runs `body` with a fresh path, `root.controller?.player?.title`, over the backend's
  /// fixture; with `weakPlayer`, not applicable if the backend's nodes have no weak link.
  private static func withFixture(
    _ context: RuleContext, weakPlayer: Bool = false,
    _ body: (PlayerTitlePath, inout Verdict) -> Void
  ) -> CheckResult {
    guard let fixture = context.nestedFixture() else { return .notApplicable(noFixture) }
    if weakPlayer && !fixture.hasWeakNext {
      return .notApplicable("the backend's nested model offers no weak link")
    }
    var verdict = Verdict()
    verdict.note(
      context.hasNativeNestedObservation
        ? "the backend's own nested observation"
        : "the backend's subjects chained with flatMapLatest")
    body(PlayerTitlePath(fixture), &verdict)
    return verdict.result
  }

  /// A fixture with root → controller → player(title).
  private static func attached(
    _ fixture: PlayerTitlePath, title: String
  )
    -> (controller: AnyObject, player: AnyObject)
  {
    let controller = fixture.makeController()
    let player = fixture.makePlayer(title: title)
    fixture.setPlayer(player, of: controller)
    fixture.setController(controller)
    return (controller, player)
  }

  final class Leaves {
    var values: [String?] = []
    var handler: (String?) -> Void { { [unowned self] in self.values.append($0) } }
  }

  static let all: [ConformanceRule] = [
    ConformanceRule(
      "KP-01", .capability, binds: .when(.has(.nestedKeyPaths)),
      title: "a nested observation reports the current leaf and each leaf change once",
      intent: "Binding a label to `a?.b?.c` must show the current title at once, then every"
        + " change, neither missing nor repeating one.",
      traits: [.showsCapability, .followsNestedPath]
    ) { context in
      withFixture(context) { fixture, verdict in
        let leaves = Leaves()
        let empty = fixture.observeTitle(leaves.handler)
        verdict.expectEqual(leaves.values, [nil], "observe with no controller (values)")
        empty.cancel()
        let chain = attached(fixture, title: "a")
        let leavesAttached = Leaves()
        let token = fixture.observeTitle(leavesAttached.handler)
        fixture.setTitle("b", of: chain.player)
        fixture.setTitle("c", of: chain.player)
        verdict.expectEqual(
          leavesAttached.values, ["a", "b", "c"],
          "observe root → controller → player(\"a\"), set title b, c (values)")
        withExtendedLifetime((token, chain)) {}
      }
    },
    ConformanceRule(
      "KP-02", .capability, binds: .when(.has(.nestedKeyPaths)),
      title: "replacing an intermediate rebinds at once",
      intent: "After `root.controller = other`, the binding must show other's title now and"
        + " follow other's changes from then on.",
      traits: [.showsCapability, .followsNestedPath]
    ) { context in
      withFixture(context) { fixture, verdict in
        let first = attached(fixture, title: "a")
        let leaves = Leaves()
        let token = fixture.observeTitle(leaves.handler)
        let controller = fixture.makeController()
        let player = fixture.makePlayer(title: "x")
        fixture.setPlayer(player, of: controller)
        fixture.setController(controller)
        verdict.expectEqual(
          leaves.values, ["a", "x"],
          "observe, then replace the controller by one whose title is x (values)")
        fixture.setTitle("y", of: player)
        verdict.expectEqual(
          leaves.values.last ?? nil, "y", "then set the new player's title to y (last value)")
        withExtendedLifetime((token, first)) {}
      }
    },
    ConformanceRule(
      "KP-03", .capability, binds: .when(.has(.nestedKeyPaths)),
      title: "a detached intermediate is silent",
      intent: "A chain that keeps observing replaced objects (Combine's `flatMap`) reports titles"
        + " of players no longer on screen.",
      traits: [.followsNestedPath]
    ) { context in
      withFixture(context) { fixture, verdict in
        let old = attached(fixture, title: "a")
        let leaves = Leaves()
        let token = fixture.observeTitle(leaves.handler)
        let replacement = attached(fixture, title: "x")
        let before = leaves.values
        fixture.setTitle("stale", of: old.player)
        fixture.setPlayer(fixture.makePlayer(title: "stale player"), of: old.controller)
        verdict.expectEqual(
          leaves.values, before,
          "replace the controller, then change the old player's title and the old controller's player (values)"
        )
        withExtendedLifetime((token, replacement)) {}
      }
    },
    ConformanceRule(
      "KP-04", .capability, binds: .when(.has(.nestedKeyPaths)),
      title: "an intermediate becoming nil delivers nil once; re-attaching resumes",
      intent: "Clearing a controller must clear the label once, the old objects must fall"
        + " silent, and reattaching must show the current title.",
      traits: [.showsCapability, .followsNestedPath]
    ) { context in
      withFixture(context) { fixture, verdict in
        let chain = attached(fixture, title: "a")
        let leaves = Leaves()
        let token = fixture.observeTitle(leaves.handler)
        fixture.setController(nil)
        verdict.expectEqual(
          leaves.values, ["a", nil], "observe, then set the controller to nil (values)")
        fixture.setTitle("b", of: chain.player)
        verdict.expectEqual(
          leaves.values, ["a", nil], "then change the detached player's title (values)")
        fixture.setController(chain.controller)
        verdict.expectEqual(
          leaves.values, ["a", nil, "b"], "then reattach the controller (values)")
        withExtendedLifetime(token) {}
      }
    },
    ConformanceRule(
      "KP-05", .capability, binds: .when(.has(.nestedKeyPaths)),
      title: "no duplicate deliveries, even after A→B→A switching",
      intent: "Each switch must not add another live subscription to the same object.",
      traits: [.followsNestedPath]
    ) { context in
      withFixture(context) { fixture, verdict in
        let a = attached(fixture, title: "a")
        let leaves = Leaves()
        let token = fixture.observeTitle(leaves.handler)
        let b = attached(fixture, title: "b")
        fixture.setController(a.controller)
        let before = leaves.values.count
        fixture.setTitle("a2", of: a.player)
        verdict.expectEqual(
          Array(leaves.values.dropFirst(before)), ["a2"],
          "switch controller A → B → A, then change A's title (callbacks)")
        withExtendedLifetime((token, b)) {}
      }
    },
    ConformanceRule(
      "KP-06", .capability, binds: .when(.has(.nestedKeyPaths)),
      title: "rebinding uses identity, not equality",
      intent: "A replacement that compares equal is still another object; the binding must move"
        + " to it.",
      traits: [.showsCapability, .followsNestedPath]
    ) { context in
      withFixture(context) { fixture, verdict in
        let chain = attached(fixture, title: "same")
        let leaves = Leaves()
        let token = fixture.observeTitle(leaves.handler)
        let twin = fixture.makePlayer(title: "same")
        fixture.setPlayer(twin, of: chain.controller)
        let before = leaves.values.count
        fixture.setTitle("old", of: chain.player)
        fixture.setTitle("new", of: twin)
        verdict.expectEqual(
          Array(leaves.values.dropFirst(before)), ["new"],
          "replace the player by an equal-titled twin, change the old one's title, then the twin's (values)"
        )
        withExtendedLifetime(token) {}
      }
    },
    ConformanceRule(
      "KP-07", .capability, binds: .when(.has(.nestedKeyPaths)),
      title: "a weakly held intermediate that deallocates is reported or documented silent",
      intent: "Weak references zero without a setter, so most observation mechanisms never see"
        + " them go and a label keeps showing a dead object's title; a backend must say which"
        + " its users get.",
      traits: [.followsNestedPath]
    ) { context in
      withFixture(context, weakPlayer: true) { fixture, verdict in
        let reports = context.has(.reportsDeallocatedIntermediates)
        let controller = fixture.makeController()
        fixture.setController(controller)
        var player: AnyObject? = fixture.makePlayer(title: "a")
        weak let released = player
        fixture.setWeakPlayer(player, of: controller)
        let leaves = Leaves()
        let token = fixture.observeWeakPlayerTitle(leaves.handler)
        verdict.expectEqual(
          leaves.values, ["a"], "observe root → controller → weak player(\"a\") (values)")
        // Made before the release, so that it cannot take the dead player's address.
        let bystander = fixture.makePlayer(title: "other")
        player = nil
        // Only the fixture's weak reference is left; a write elsewhere lets asynchronous
        // backends take a turn.
        fixture.setTitle("unrelated", of: bystander)
        verdict.expect(
          released == nil, "release the only strong reference to the player",
          expected: "the player deallocates", observed: "the observation keeps it alive")
        verdict.expectEqual(
          leaves.values, reports ? ["a", nil] : ["a"],
          reports
            ? "then look at the values: the backend declares reportsDeallocatedIntermediates"
            : "then look at the values: without reportsDeallocatedIntermediates the binding"
              + " must stay silent (it keeps showing the dead player's title)")
        let next = fixture.makePlayer(title: "b")
        fixture.setWeakPlayer(next, of: controller)
        verdict.expectEqual(
          leaves.values.last ?? nil, "b",
          "then hold a new player(\"b\") weakly (last value): the binding still follows")
        withExtendedLifetime((token, next, controller, bystander)) {}
      }
    },
    ConformanceRule(
      "KP-08", .capability, binds: .when(.has(.nestedKeyPaths)),
      title: "cancelling a nested observation releases everything along the chain",
      intent: "A cancelled binding must leave no registration behind on any intermediate, or"
        + " long-lived models accumulate dead observers.",
      traits: [.followsNestedPath]
    ) { context in
      withFixture(context) { fixture, verdict in
        let chain = attached(fixture, title: "a")
        let countsBefore = [nil, chain.controller, chain.player].map {
          fixture.observerCount(on: $0)
        }
        var canary: Canary? = Canary()
        weak let watched = canary
        let token = fixture.observeTitle { [canary] _ in canary?.touch() }
        canary = nil
        let other = attached(fixture, title: "b")
        fixture.setController(chain.controller)
        token.cancel()
        // With cancelsOnLaterTurn the cancel takes effect on the backend's turn, behind the
        // changes already waiting, which may hold the handler until then.
        let laterTurn = context.capabilities.has(.cancelsOnLaterTurn)
        if laterTurn { context.drain() }
        verdict.expect(
          watched == nil,
          "observe with a closure capturing an object, switch controllers, cancel"
            + (laterTurn ? ", give the backend its turns (cancelsOnLaterTurn)" : ""),
          expected: "the handler is released", observed: "it is still alive")
        let countsAfter = [nil, chain.controller, chain.player, other.controller, other.player].map
        {
          fixture.observerCount(on: $0)
        }
        if countsAfter.allSatisfy({ $0 != nil }) {
          verdict.expectEqual(
            countsAfter.map { $0! }, [countsBefore[0]!, countsBefore[1]!, countsBefore[2]!, 0, 0],
            "then count registrations on root, controller, player and the other chain")
        } else {
          verdict.note("registrations not countable on this backend: checked by releases")
        }
        withExtendedLifetime(other) {}
      }
    },
  ]
}
