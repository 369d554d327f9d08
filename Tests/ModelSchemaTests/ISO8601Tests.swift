import Foundation
import Testing

@testable import ModelSchema

struct ISO8601Tests {
    @Test(arguments: [
        ("2024-01-31", 1_706_659_200.0), ("1970-01-01T00:00:00Z", 0), ("2000-02-29T12:30Z", 951_827_400),
        ("2024-01-31T12:00:00.250+02:00", 1_706_695_200.25), ("1969-12-31T23:59:59Z", -1), ("2024-06-01T08:00:00-0530", 1_717_248_600),
    ])
    func parsesTheFormsModelsUse(_ text: String, _ seconds: Double) throws {
        let date = try #require(ISO8601.date(from: text))
        #expect(date.timeIntervalSince1970 == seconds)
    }

    @Test(arguments: ["2023-02-29", "2024-13-01", "2024-01-32", "24-01-01", "2024-01-01T25:00Z", "2024-01-01T10:00Zjunk", "tomorrow", ""])
    func rejectsWhatIsNotADate(_ text: String) {
        #expect(ISO8601.date(from: text) == nil)
    }

    @Test func agreesWithFoundationsFormatter() throws {
        let formatter = ISO8601DateFormatter()
        for text in ["2021-07-04T09:15:30Z", "1999-12-31T23:59:59+01:00", "2100-03-01T00:00:00Z"] {
            #expect(ISO8601.date(from: text) == formatter.date(from: text), "\(text)")
        }
    }
}
