import Foundation

/// Wall time, the process's CPU time and its resident memory (Linux `/proc`), per phase.
enum Measure {
    /// The wall time and the CPU time (all threads of the process) `body` takes.
    static func seconds(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let cpuStart = cpuSeconds()
        try body()
        let cpu = cpuSeconds() - cpuStart
        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, cpu)
    }

    /// The CPU time the process has used: unlike wall time, it leaves out the time the process
    /// waited for a core, so it stays comparable on a machine shared with other work.
    static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
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
    var cpuSeconds: Double
    var peakBytes: Int

    var rowsPerSecond: Double { seconds > 0 ? Double(rows) / seconds : 0 }
    var rowsPerCPUSecond: Double { cpuSeconds > 0 ? Double(rows) / cpuSeconds : 0 }

    /// Runs `body` (which returns the rows it handled) with the peak memory reset first.
    static func measure(_ body: () throws -> Int) rethrows -> Figure {
        Measure.resetPeak()
        var rows = 0
        let time = try Measure.seconds { rows = try body() }
        return Figure(rows: rows, seconds: time.wall, cpuSeconds: time.cpu, peakBytes: Measure.peakBytes())
    }

    /// The line a child process prints for its parent.
    var line: String { "FIGURE \(rows) \(seconds) \(cpuSeconds) \(peakBytes)" }

    init(rows: Int, seconds: Double, cpuSeconds: Double, peakBytes: Int) {
        self.rows = rows
        self.seconds = seconds
        self.cpuSeconds = cpuSeconds
        self.peakBytes = peakBytes
    }

    init?(line: Substring) {
        let parts = line.split(separator: " ")
        guard parts.count == 5, parts[0] == "FIGURE", let rows = Int(parts[1]), let seconds = Double(parts[2]),
            let cpu = Double(parts[3]), let peak = Int(parts[4])
        else { return nil }
        self.init(rows: rows, seconds: seconds, cpuSeconds: cpu, peakBytes: peak)
    }
}
