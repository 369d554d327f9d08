import Foundation
import ModelSchema
import Synchronization

/// The progress of a long command (`compile`, `migrate-store`) as one line on standard error,
/// redrawn in place (`[2/4] migrating 'Trips 1' to 'Trips 2', 1200 rows copied`) and cleared when
/// the work ends. Drawn only when standard error is a terminal and `--quiet` is not given, so
/// pipes, logs and standard output never see it.
final class ProgressLine: Sendable {
    /// `--quiet`, shared by the commands that show progress.
    static let quiet = Flag("--quiet", help: "Show no progress line on a terminal.")

    private let console: Console
    private let state = Mutex(State())
    /// Redraws closer together than this are skipped, except the first and the last step's.
    private static let interval: Duration = .milliseconds(100)

    private struct State {
        var drawn = false
        var lastDraw: ContinuousClock.Instant?
    }

    private init(console: Console) {
        self.console = console
    }

    /// A line for `console`, or nil when nothing is to be drawn (not a terminal, or `quiet`).
    static func make(console: Console, quiet: Bool) -> ProgressLine? {
        console.standardErrorIsTerminal && !quiet ? ProgressLine(console: console) : nil
    }

    /// The handler the work reports to.
    var handler: ProgressHandler { { [self] progress in show(progress) } }

    func show(_ progress: WorkProgress) {
        let now = ContinuousClock.now
        let due = state.withLock { state in
            let due = (state.lastDraw.map { now - $0 >= Self.interval } ?? true) || progress.completed == progress.total
            if due {
                state.lastDraw = now
                state.drawn = true
            }
            return due
        }
        if due { console.standardError("\r\u{1B}[K" + Self.text(progress)) }
    }

    /// Clears the line, so what the command prints next starts at the line's beginning.
    func finish() {
        let drawn = state.withLock { state in
            defer { state.drawn = false }
            return state.drawn
        }
        if drawn { console.standardError("\r\u{1B}[K") }
    }

    static func text(_ progress: WorkProgress) -> String {
        "[\(progress.completed)/\(progress.total)] \(progress.step)" + (progress.rowsCopied.map { ", \($0) rows copied" } ?? "")
            + (progress.stepFraction.map { ", \(Int(($0 * 100).rounded(.down)))%" } ?? "")
    }
}
