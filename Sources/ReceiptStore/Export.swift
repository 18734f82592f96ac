import Foundation
import ReceiptModel

/// One snapshot of a store for an export (`receipts export`): the receipts a filter selected,
/// every link and item, and (when asked) each receipt's detail. The formats are the CLI's.
public struct StoreExport: Sendable {
    public var exportedAt: String
    public var receipts: [ReceiptListing]
    /// Each receipt's detail, when the export asked for them.
    public var details: [ReceiptID: ReceiptDetail]
    public var links: [Link]
    public var items: [StoredItem]
    /// Each receipt's line items (as corrected), by position.
    public var lineItems: [ReceiptID: [ReceiptSummary.Line]]

    public init(exportedAt: String, receipts: [ReceiptListing], details: [ReceiptID: ReceiptDetail], links: [Link], items: [StoredItem],
                lineItems: [ReceiptID: [ReceiptSummary.Line]] = [:]) {
        self.exportedAt = exportedAt; self.receipts = receipts; self.details = details; self.links = links; self.items = items
        self.lineItems = lineItems
    }
}
