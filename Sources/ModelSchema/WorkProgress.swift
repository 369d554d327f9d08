/// How far a long piece of work has come, reported as it goes: the steps done of the total, the
/// step under way, and, in a step that copies rows, the rows copied so far, or, in a step that
/// knows its share done (a migration through a mapping model), that share.
public struct WorkProgress: Sendable, Equatable {
    /// Steps finished; `completed == total` when the work is done.
    public var completed: Int
    public var total: Int
    /// The step under way (`migrating 'Trips 1' to 'Trips 2'`), or the last one when done.
    public var step: String
    /// Rows copied so far in the step under way, when it copies rows.
    public var rowsCopied: Int?
    /// The share of the step under way done, from 0 to 1, when the step reports one.
    public var stepFraction: Double?

    public init(completed: Int, total: Int, step: String, rowsCopied: Int? = nil, stepFraction: Double? = nil) {
        self.completed = completed
        self.total = total
        self.step = step
        self.rowsCopied = rowsCopied
        self.stepFraction = stepFraction
    }
}

/// Receives ``WorkProgress`` on the thread doing the work, so it must return quickly.
public typealias ProgressHandler = @Sendable (WorkProgress) -> Void
