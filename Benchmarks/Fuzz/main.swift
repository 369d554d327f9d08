import Foundation

// Mutation fuzzing of every reader modelgen has, in-process. Each input is written to the
// findings folder before it runs and removed after, so an input that kills the process stays
// behind (the next run reports it as a crash finding); a watchdog saves inputs that run past the
// time budget and stops the run on a hang.
//
//   swift run -c release modelgen-fuzz --seconds 3600 --seed 1
//   swift run -c release modelgen-fuzz --seconds 60 --readers plist,mom --budget 2
//
// Documented in Benchmarks/README.md.

struct Options {
    var seconds: Double = 60
    var seed: UInt64 = UInt64(Date().timeIntervalSince1970)
    var readers = Targets.all
    var budget: Double = 2
    var hardLimit: Double = 30
    var findings = ".build/fuzz-findings"
    var root = FileManager.default.currentDirectoryPath
    var slice: Double = 10

    static let usage = """
        usage: modelgen-fuzz [--seconds N] [--seed N] [--readers yaml,xcode,plist,mom,store]
                             [--budget SECONDS] [--hard-limit SECONDS] [--findings FOLDER] [--root PACKAGE]
          --seconds     total running time, shared by the readers in slices (default 60)
          --seed        seed of the mutations; the same seed repeats the same inputs (default: the time)
          --budget      an input running longer is saved as a slow finding (default 2)
          --hard-limit  an input running longer is a hang: saved, and the run stops with status 3 (default 30)
          --findings    where findings are saved (default .build/fuzz-findings)
          --root        the package folder holding Samples/ and Tests/Fixtures/ (default: the current folder)
        """

    init(_ arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        func value(_ flag: String) throws -> String {
            guard let next = iterator.next() else { throw FuzzError("\(flag) needs a value") }
            return next
        }
        while let argument = iterator.next() {
            switch argument {
            case "--seconds": seconds = try Double(value(argument)).orThrow("--seconds needs a number")
            case "--seed": seed = try UInt64(value(argument)).orThrow("--seed needs a whole number")
            case "--readers": readers = try value(argument).split(separator: ",").map(String.init)
            case "--budget": budget = try Double(value(argument)).orThrow("--budget needs a number")
            case "--hard-limit": hardLimit = try Double(value(argument)).orThrow("--hard-limit needs a number")
            case "--findings": findings = try value(argument)
            case "--root": root = try value(argument)
            case "--help", "-h":
                say(Self.usage)
                exit(0)
            default: throw FuzzError("unknown option '\(argument)'\n\(Self.usage)")
            }
        }
    }
}

/// Prints a line at once (standard output is not buffered for a person watching a long run).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

extension Optional {
    func orThrow(_ message: String) throws -> Wrapped {
        guard let self else { throw FuzzError(message) }
        return self
    }
}

/// The file an input is written to before it runs. It stays open and is overwritten in place,
/// without the `fsync` of `Data.write` or the flush ext4 does when a truncated file is closed:
/// the page cache keeps the input if the process dies, and syncing every input would cost more
/// than running it.
final class InputFile {
    let path: String
    private let descriptor: Int32

    init(path: String) throws {
        self.path = path
        descriptor = open(path, O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else { throw FuzzError("cannot write \(path)") }
    }

    func write(_ bytes: [UInt8]) throws {
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count, ftruncate(descriptor, off_t(bytes.count)) == 0 else {
            throw FuzzError("cannot write \(path)")
        }
    }

    deinit { close(descriptor) }
}

/// What one reader did over the run.
struct Tally {
    var inputs = 0
    var accepted = 0
    var seconds = 0.0
    var slowest = 0.0
    var slow = 0
    var signatures: Set<String> = []
    var pool: [[UInt8]] = []
}

func run(_ options: Options) throws {
    let root = URL(fileURLWithPath: options.root)
    let findings = try Findings(folder: URL(fileURLWithPath: options.findings))
    for crash in findings.collectCrashes() { say("CRASH (left by an earlier run): saved as \(crash)") }
    let targets = try options.readers.map { try Targets.make($0, root: root) }
    let watchdog = Watchdog(budget: options.budget, hardLimit: options.hardLimit, findings: findings)
    watchdog.start()
    var generator = SplitMix64(seed: options.seed)
    var tallies = Dictionary(uniqueKeysWithValues: targets.map { ($0.name, Tally(pool: $0.seeds)) })
    say("modelgen-fuzz: seed \(options.seed), \(Int(options.seconds)) s over \(targets.map(\.name).joined(separator: ", "))")
    say("seeds: " + targets.map { "\($0.name) \($0.seeds.count)" }.joined(separator: ", "))

    let end = Date().addingTimeInterval(options.seconds)
    let slice = min(options.slice, options.seconds / Double(max(targets.count, 1)))
    while Date() < end {
        for target in targets where Date() < end {
            let folder = findings.inProgressFolder(for: target.name)
            let inputURL = folder.appendingPathComponent(target.inputFileName)
            try FileManager.default.createDirectory(
                at: inputURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            let mutator = Mutator(tokens: target.tokens, maximumSize: target.maximumSize)
            var tally = tallies[target.name]!
            let inputFile = try InputFile(path: inputURL.path)
            let sliceEnd = min(end, Date().addingTimeInterval(slice))
            while Date() < sliceEnd {
                let parent = tally.pool.randomElement(using: &generator)!
                let input = mutator.mutate(parent, pool: tally.pool, using: &generator)
                try inputFile.write(input)
                watchdog.begin(reader: target.name, bytes: input)
                let started = Date()
                let outcome = target.run(inputURL.path, input)
                let elapsed = Date().timeIntervalSince(started)
                if watchdog.end() { tally.slow += 1 }
                tally.inputs += 1
                tally.seconds += elapsed
                tally.slowest = max(tally.slowest, elapsed)
                if outcome.accepted { tally.accepted += 1 }
                // Inputs that end in a way not seen before become parents of later mutants.
                if tally.signatures.insert(outcome.signature).inserted || (outcome.accepted && tally.pool.count < 64) {
                    if tally.pool.count < 512 {
                        tally.pool.append(input)
                    } else {
                        tally.pool[Int.random(in: target.seeds.count..<tally.pool.count, using: &generator)] = input
                    }
                }
            }
            try? FileManager.default.removeItem(at: folder)
            tallies[target.name] = tally
        }
        let done = tallies.values.reduce(0) { $0 + $1.inputs }
        say("… \(done) inputs, \(Int(end.timeIntervalSinceNow.rounded(.up))) s left")
    }

    say("")
    say("reader     inputs   inputs/s  accepted  outcomes  slowest ms  slow (> \(options.budget) s)")
    for target in targets {
        let tally = tallies[target.name]!
        let rate = tally.seconds > 0 ? Double(tally.inputs) / tally.seconds : 0
        say(
            target.name.padding(toLength: 8, withPad: " ", startingAt: 0)
                + String(
                    format: " %8d %10.0f %9d %9d %11.1f %8d", tally.inputs, rate, tally.accepted, tally.signatures.count,
                    tally.slowest * 1000, tally.slow))
    }
    let slowTotal = tallies.values.reduce(0) { $0 + $1.slow }
    say(slowTotal == 0 ? "findings: none" : "findings: \(slowTotal) slow inputs saved in \(findings.folder.path)")
    if slowTotal > 0 { exit(1) }
}

do {
    try run(try Options(Array(CommandLine.arguments.dropFirst())))
} catch {
    FileHandle.standardError.write(Data("modelgen-fuzz: \(error)\n".utf8))
    exit(2)
}
