import ReceiptIngest
import ReceiptOCR

/// Why one file could not be read, as a short code and a message without the file name:
/// stored with failed receipts, printed in summaries, written in JSON reports.
public struct FailureReport: Sendable, Hashable, Codable, Error {
    public var code: String
    public var message: String

    public init(code: String, message: String) { self.code = code; self.message = message }

    /// The code of a receipt that was read but could not be written to the store.
    public static let storeCode = "store"

    public init(_ error: Error) {
        switch error {
        case let e as FailureReport: self = e
        case let e as IngestError: self.init(code: e.code, message: e.fullMessage)
        case let e as OCRError:
            if case .timedOut = e { self.init(code: "timeout", message: e.message) } else { self.init(code: "ocr-failed", message: e.message) }
        case let e as ReportableFailure: self.init(code: "failed", message: e.failureMessage)
        default: self.init(code: "failed", message: "\(error)")
        }
    }
}

/// An error of a front end (the CLI's) that knows the message a failed file should carry.
public protocol ReportableFailure: Error {
    var failureMessage: String { get }
}
