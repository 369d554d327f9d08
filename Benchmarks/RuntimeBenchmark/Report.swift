import Foundation

/// The table the benchmark prints: per phase, rows/second of the runtime and of the SQLite
/// floor, their ratio, each one's peak memory, and the target with whether it is met.
enum Report {
    enum Target {
        case ratio(Double)
        case rate(Double)
        case peakBelow(Int)
        case none

        var text: String {
            switch self {
            case .ratio(let ratio): return "≥ \(Int(ratio * 100))% of floor"
            case .rate(let rate): return "≥ \(Int(rate))/s"
            case .peakBelow(let bytes): return "peak < \(bytes / 1_048_576) MB"
            case .none: return "—"
            }
        }
    }

    struct Row {
        var phase: String
        var runtime: Figure
        var floor: Figure
        var target: Target

        var ratio: Double { floor.rowsPerSecond > 0 ? runtime.rowsPerSecond / floor.rowsPerSecond : 0 }
        /// The same ratio by CPU time, which waiting for a core on a busy machine does not skew.
        var cpuRatio: Double { floor.rowsPerCPUSecond > 0 ? runtime.rowsPerCPUSecond / floor.rowsPerCPUSecond : 0 }

        var verdict: String {
            switch target {
            case .ratio(let wanted): return ratio >= wanted ? "met" : "BELOW"
            case .rate(let wanted): return runtime.rowsPerSecond >= wanted ? "met" : "BELOW"
            case .peakBelow(let bytes): return runtime.peakBytes < bytes ? "met" : "ABOVE"
            case .none: return ""
            }
        }
    }

    static func rate(_ value: Double) -> String { String(format: "%.0f", value) }
    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }

    static func table(_ rows: [Row], date: Date) -> String {
        let header = ["phase", "runtime rows/s", "floor rows/s", "ratio", "CPU ratio", "runtime peak", "floor peak", "target", ""]
        let cells = rows.map { row in
            [
                row.phase, rate(row.runtime.rowsPerSecond), rate(row.floor.rowsPerSecond), String(format: "%.1f%%", row.ratio * 100),
                String(format: "%.1f%%", row.cpuRatio * 100), megabytes(row.runtime.peakBytes), megabytes(row.floor.peakBytes),
                row.target.text, row.verdict,
            ]
        }
        let widths = header.indices.map { column in ([header] + cells).map { $0[column].count }.max() ?? 0 }
        func line(_ values: [String]) -> String {
            "| " + zip(values, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |"
        }
        var lines = [line(header), "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"]
        lines += cells.map(line)
        let formatter = ISO8601DateFormatter()
        lines.append(
            "measured \(formatter.string(from: date)); peak = the largest resident set during the phase; CPU ratio = the ratio by the process's CPU time"
        )
        return lines.joined(separator: "\n")
    }
}
