import Foundation

/// Wall time and the process's resident memory (Linux `/proc`), per phase.
enum Measure {
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Resets the peak resident set size (`VmHWM`) so the next reading covers only what follows.
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// The peak resident set size in bytes since the last reset (0 when `/proc` is unavailable).
    static func peakBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return digits * 1024
        }
        return 0
    }
}

/// One measured piece of work: how many rows it handled, in how long, at what peak memory.
struct Figure {
    var rows: Int
    var seconds: Double
    var peakBytes: Int

    var rowsPerSecond: Double { seconds > 0 ? Double(rows) / seconds : 0 }

    /// Runs `body` (which returns the rows it handled) with the peak memory reset first.
    static func measure(_ body: () throws -> Int) rethrows -> Figure {
        Measure.resetPeak()
        var rows = 0
        let time = try Measure.seconds { rows = try body() }
        return Figure(rows: rows, seconds: time, peakBytes: Measure.peakBytes())
    }

    /// The line a child process prints for its parent.
    var line: String { "FIGURE \(rows) \(seconds) \(peakBytes)" }

    init(rows: Int, seconds: Double, peakBytes: Int) {
        self.rows = rows
        self.seconds = seconds
        self.peakBytes = peakBytes
    }

    init?(line: Substring) {
        let parts = line.split(separator: " ")
        guard parts.count == 4, parts[0] == "FIGURE", let rows = Int(parts[1]), let seconds = Double(parts[2]),
            let peak = Int(parts[3])
        else { return nil }
        self.init(rows: rows, seconds: seconds, peakBytes: peak)
    }
}
