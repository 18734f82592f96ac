// swift-tools-version:6.0
import PackageDescription

// The pipeline, one module per stage:
//   ReceiptIngest  image file/bytes -> IngestedImage (Leptonica)
//   ReceiptOCR     IngestedImage -> OCRPage (Tesseract)
//   ReceiptParser  OCRPage -> ParsedReceipt (pure Swift, no C)
//   ReceiptPipeline  the three above in order, with a second look when the first is doubtful;
//                    the batch runner (folder walk, one worker pool, skip-by-hash, save) for every front end
//   ReceiptStore   SQLite store of items, receipts, links
//   ReceiptReconcile  receipts <-> inventory items
//   ReceiptsCLI    the `receipts` command, testable in-process
// ReceiptModel holds the value types every stage hands to the next.
let package = Package(
    name: "receipts",
    platforms: [.macOS(.v15)],  // Synchronization.Mutex; Linux needs nothing
    products: [
        .executable(name: "receipts", targets: ["receipts"]),
        .library(name: "ReceiptKit", targets: [
            "ReceiptModel", "ReceiptIngest", "ReceiptOCR", "ReceiptParser",
            "ReceiptPipeline", "ReceiptStore", "ReceiptReconcile", "ReceiptsCLI",
        ]),
    ],
    targets: [
        .systemLibrary(
            name: "CTesseract",
            path: "CTesseract",
            pkgConfig: "tesseract lept",
            providers: [
                .apt(["libtesseract-dev", "libleptonica-dev", "tesseract-ocr-eng", "tesseract-ocr-osd"]),
                .brew(["tesseract", "leptonica"]),
            ]
        ),
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(name: "ReceiptModel"),
        .target(name: "ReceiptIngest", dependencies: ["CTesseract", "ReceiptModel"]),
        .target(name: "ReceiptOCR", dependencies: ["CTesseract", "ReceiptModel", "ReceiptIngest"]),
        .target(name: "ReceiptParser", dependencies: ["ReceiptModel"]),
        .target(name: "ReceiptPipeline", dependencies: ["ReceiptModel", "ReceiptIngest", "ReceiptOCR", "ReceiptParser", "ReceiptStore"]),
        .target(name: "ReceiptStore", dependencies: ["CSQLite", "ReceiptModel"]),
        .target(name: "ReceiptReconcile", dependencies: ["ReceiptModel", "ReceiptStore"]),
        .target(name: "ReceiptsCLI", dependencies: [
            "ReceiptModel", "ReceiptIngest", "ReceiptOCR", "ReceiptParser", "ReceiptPipeline", "ReceiptStore", "ReceiptReconcile",
        ]),
        .executableTarget(name: "receipts", dependencies: ["ReceiptsCLI"]),
        .executableTarget(name: "receipts-bench", dependencies: ["ReceiptStore", "ReceiptReconcile", "ReceiptModel"]),
        .testTarget(name: "ParserTests", dependencies: ["ReceiptParser", "ReceiptModel"]),
        .testTarget(name: "PipelineTests", dependencies: ["ReceiptIngest", "ReceiptOCR", "ReceiptParser", "ReceiptPipeline", "ReceiptsCLI", "ReceiptModel"]),
        .testTarget(name: "StoreTests", dependencies: ["ReceiptStore", "ReceiptReconcile", "ReceiptsCLI", "ReceiptModel"]),
    ],
    swiftLanguageModes: [.v6]
)
