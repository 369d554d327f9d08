import ModelSchema

/// One problem found in a model, reported in the compiler's `file:line:col: severity: message`
/// format so that editors and Xcode pick it up.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable, Comparable {
        case error
        case warning
        case note

        private var rank: Int {
            switch self {
            case .error: 0
            case .warning: 1
            case .note: 2
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    public let severity: Severity
    public let message: String
    public let location: SourceLocation
    /// Notes that belong to this diagnostic ("first declared here"), printed right after it.
    public var notes: [Diagnostic] = []

    public init(_ severity: Severity, _ message: String, at location: SourceLocation) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    /// The diagnostic and its notes, one line each, without a final newline.
    public var description: String {
        ([self.line] + notes.map(\.line)).joined(separator: "\n")
    }

    private var line: String { "\(location): \(severity.rawValue): \(message)" }
}

/// Collects diagnostics while a stage runs. Stages receive the collector instead of printing, so
/// every problem of a run can be reported together and in a stable order.
public final class DiagnosticCollector {
    public private(set) var diagnostics: [Diagnostic] = []

    public init() {}

    public func error(_ message: String, at location: SourceLocation) {
        diagnostics.append(Diagnostic(.error, message, at: location))
    }

    public func warning(_ message: String, at location: SourceLocation) {
        diagnostics.append(Diagnostic(.warning, message, at: location))
    }

    /// Attaches a note to the most recent diagnostic.
    public func note(_ message: String, at location: SourceLocation) {
        guard !diagnostics.isEmpty else { return }
        diagnostics[diagnostics.count - 1].notes.append(Diagnostic(.note, message, at: location))
    }

    public func append(contentsOf other: [Diagnostic]) {
        diagnostics.append(contentsOf: other)
    }

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// The diagnostics sorted by location, then severity, then message; duplicates removed.
    public var sorted: [Diagnostic] {
        var seen = Set<Diagnostic>()
        return diagnostics.filter { seen.insert($0).inserted }.sorted {
            if $0.location != $1.location { return $0.location < $1.location }
            if $0.severity != $1.severity { return $0.severity < $1.severity }
            return $0.message < $1.message
        }
    }
}
