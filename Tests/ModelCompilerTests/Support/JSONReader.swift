import ModelCompiler

/// Reads a stream of concatenated JSON values (the yaml-test-suite's `in.json` holds one value
/// per YAML document). Test support only: strict enough for the suite's files.
struct JSONStreamReader {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    struct Failure: Error {}

    mutating func readAll() throws -> [JSONValue] {
        var values: [JSONValue] = []
        skipSpace()
        while index < scalars.count {
            values.append(try value())
            skipSpace()
        }
        return values
    }

    private mutating func skipSpace() {
        while index < scalars.count, [" ", "\n", "\r", "\t"].contains(scalars[index]) { index += 1 }
    }

    private mutating func expect(_ scalar: Unicode.Scalar) throws {
        skipSpace()
        guard index < scalars.count, scalars[index] == scalar else { throw Failure() }
        index += 1
    }

    private mutating func value() throws -> JSONValue {
        skipSpace()
        guard index < scalars.count else { throw Failure() }
        switch scalars[index] {
        case "{":
            index += 1
            var members: [String: JSONValue] = [:]
            skipSpace()
            if scalars[index] == "}" {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                let key = try string()
                try expect(":")
                members[key] = try value()
                skipSpace()
                if scalars[index] == "," {
                    index += 1
                    continue
                }
                try expect("}")
                return .object(members)
            }
        case "[":
            index += 1
            var items: [JSONValue] = []
            skipSpace()
            if scalars[index] == "]" {
                index += 1
                return .array(items)
            }
            while true {
                items.append(try value())
                skipSpace()
                if scalars[index] == "," {
                    index += 1
                    continue
                }
                try expect("]")
                return .array(items)
            }
        case "\"": return .string(try string())
        default:
            let start = index
            while index < scalars.count, !",]} \n\r\t".unicodeScalars.contains(scalars[index]) { index += 1 }
            let word = String(String.UnicodeScalarView(scalars[start..<index]))
            switch word {
            case "null": return .null
            case "true": return .bool(true)
            case "false": return .bool(false)
            default:
                guard let number = Double(word) else { throw Failure() }
                return .number(number)
            }
        }
    }

    private mutating func string() throws -> String {
        guard scalars[index] == "\"" else { throw Failure() }
        index += 1
        var result = String.UnicodeScalarView()
        while scalars[index] != "\"" {
            if scalars[index] == "\\" {
                index += 1
                switch scalars[index] {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "b": result.append("\u{8}")
                case "f": result.append("\u{C}")
                case "/": result.append("/")
                case "u":
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        index += 2
                        let low = try hex4()
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw Failure() }
                    result.append(scalar)
                default: result.append(scalars[index])
                }
            } else {
                result.append(scalars[index])
            }
            index += 1
        }
        index += 1
        return String(result)
    }

    private mutating func hex4() throws -> UInt32 {
        let digits = String(String.UnicodeScalarView(scalars[(index + 1)...(index + 4)]))
        guard let code = UInt32(digits, radix: 16) else { throw Failure() }
        index += 4
        return code
    }
}
