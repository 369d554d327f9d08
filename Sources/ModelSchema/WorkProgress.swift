/// How far a long piece of work has come, reported as it goes: the steps done of the total, the
/// step under way, and, in a step that copies rows, the rows copied so far.
public struct WorkProgress: Sendable, Equatable {
    /// Steps finished; `completed == total` when the work is done.
    public var completed: Int
    public var total: Int
    /// The step under way (`migrating 'Trips 1' to 'Trips 2'`), or the last one when done.
    public var step: String
    /// Rows copied so far in the step under way, when it copies rows.
    public var rowsCopied: Int?

    public init(completed: Int, total: Int, step: String, rowsCopied: Int? = nil) {
        self.completed = completed
        self.total = total
        self.step = step
        self.rowsCopied = rowsCopied
    }
}

/// Receives ``WorkProgress`` on the thread doing the work, so it must return quickly.
public typealias ProgressHandler = @Sendable (WorkProgress) -> Void
