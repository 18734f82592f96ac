// swift-tools-version:6.0
import PackageDescription

// The pipeline, one module per stage:
//   ReceiptIngest  image file/bytes -> IngestedFile: pages of IngestedImage (decoders; Leptonica)
//   ReceiptOCR     PageImage (plain pixels) -> OCRPage (the OCREngine protocol; Tesseract)
//   ReceiptParser  OCRPage -> ParsedReceipt (pure Swift, no C)
//   ReceiptPipeline  the three above in order, with a second look when the first is doubtful;
//                    the batch runner (folder walk, one worker pool, skip-by-hash, save) for every front end
//   ReceiptStore   the store of items, receipts, links: a SQLite file or a PostgreSQL database, one SQL for both
//   ReceiptLearning  the shop directory's logic: fingerprints, matching, habits, what a correction teaches
//   ReceiptInventory  inventory files (CSV, Homebox, Nestory) -> items for the store (pure Swift, no C)
//   ReceiptReconcile  receipts <-> inventory items
//   ReceiptDrawing  boxes and labels drawn on a page (show --annotate, eval --html), pure Swift
//   ReceiptsCLI    the `receipts` command, testable in-process
// ReceiptModel holds the value types every stage hands to the next (PageImage, OCRPage, ParsedReceipt).
// C stays in system-library targets: CLeptonica, CHeif, CPoppler (ingest only), CTesseract (OCR only), CSQLite and CLibPQ (store only).
let package = Package(
    name: "receipts",
    platforms: [.macOS(.v15)],  // Synchronization.Mutex; Linux needs nothing
    products: [
        .executable(name: "receipts", targets: ["receipts"]),
        // The library an app or server embeds: every library module, never the command line.
        .library(name: "ReceiptKit", targets: [
            "ReceiptSupport", "ReceiptModel", "ReceiptIngest", "ReceiptOCR", "ReceiptParser",
            "ReceiptPipeline", "ReceiptStore", "ReceiptInventory", "ReceiptReconcile", "ReceiptDrawing", "ReceiptEval", "ReceiptLearning",
        ]),
    ],
    targets: [
        // One system-library target per C library, each a thin shim (see its shim.h).
        .systemLibrary(
            name: "CLeptonica",
            path: "CLeptonica",
            pkgConfig: "lept",
            providers: [.apt(["libleptonica-dev"]), .brew(["leptonica"])]
        ),
        .systemLibrary(
            name: "CTesseract",
            path: "CTesseract",
            pkgConfig: "tesseract",
            providers: [
                .apt(["libtesseract-dev", "tesseract-ocr-eng", "tesseract-ocr-osd"]),
                .brew(["tesseract"]),
            ]
        ),
        .systemLibrary(
            name: "CHeif",
            path: "CHeif",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"]), .brew(["libheif"])]
        ),
        .systemLibrary(
            name: "CPoppler",
            path: "CPoppler",
            pkgConfig: "poppler-glib",
            providers: [.apt(["libpoppler-glib-dev"]), .brew(["poppler"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            path: "Sources/CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        // The image libraries' messages, kept per thread instead of printed (libpng, libjpeg, Leptonica).
        .target(name: "CDecoderMessages", linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg"), .linkedLibrary("leptonica")]),
        .target(name: "ReceiptSupport"),
        .target(name: "ReceiptModel", dependencies: ["ReceiptSupport"]),
        .target(name: "ReceiptIngest", dependencies: ["CLeptonica", "CHeif", "CPoppler", "CDecoderMessages", "ReceiptModel", "ReceiptSupport"]),
        // Boxes, lines and labels on a page's pixels, in Swift (the fonts are data): no C library.
        .target(name: "ReceiptDrawing", dependencies: ["ReceiptModel"], exclude: ["tools"]),
        .target(name: "ReceiptOCR", dependencies: ["CTesseract", "ReceiptModel", "ReceiptSupport"]),
        .target(name: "ReceiptParser", dependencies: ["ReceiptModel", "ReceiptSupport"]),
        .target(name: "ReceiptPipeline", dependencies: ["ReceiptModel", "ReceiptSupport", "ReceiptIngest", "ReceiptOCR", "ReceiptParser", "ReceiptStore", "ReceiptLearning"]),
        .target(name: "ReceiptStore", dependencies: ["CSQLite", "CLibPQ", "ReceiptModel"]),
        // The shop directory's logic: fingerprints, matching, habits, what a correction teaches (pure Swift).
        .target(name: "ReceiptLearning", dependencies: ["ReceiptModel", "ReceiptSupport", "ReceiptParser", "ReceiptStore"]),
        .target(name: "ReceiptInventory", dependencies: ["ReceiptModel", "ReceiptStore"]),
        .target(name: "ReceiptReconcile", dependencies: ["ReceiptModel", "ReceiptSupport", "ReceiptParser", "ReceiptStore"]),
        .target(name: "ReceiptEval", dependencies: ["ReceiptModel", "ReceiptSupport", "ReceiptIngest", "ReceiptOCR", "ReceiptParser", "ReceiptPipeline", "ReceiptDrawing",
                                                   "ReceiptStore", "ReceiptLearning"]),
        .target(name: "ReceiptsCLI", dependencies: [
            "ReceiptModel", "ReceiptSupport", "ReceiptIngest", "ReceiptOCR", "ReceiptParser", "ReceiptPipeline", "ReceiptStore", "ReceiptInventory", "ReceiptReconcile", "ReceiptDrawing", "ReceiptEval",
            "ReceiptLearning",
        ]),
        .executableTarget(name: "receipts", dependencies: ["ReceiptsCLI"]),
        .executableTarget(name: "receipts-bench", dependencies: ["ReceiptStore", "ReceiptReconcile", "ReceiptModel", "ReceiptParser", "ReceiptEval"]),
        // Fuzz targets (image, parser, inventory, rules, vendors): libFuzzer under `make fuzz`, a replayer otherwise.
        .executableTarget(name: "receipts-fuzz", dependencies: ["ReceiptIngest", "ReceiptParser", "ReceiptInventory", "ReceiptModel", "ReceiptSupport", "ReceiptHostileInputs"]),
        // Structured damage to real image files, for the fuzzer's image mutations and the hostile-file tests
        // (in no product: a Sources executable may depend on it, never on test support).
        .target(name: "ReceiptHostileInputs"),
        // Test doubles (scripted and failing OCR engines, child processes) any test target may use.
        .target(name: "ReceiptTestSupport", dependencies: ["ReceiptModel", "ReceiptOCR"], path: "Tests/Support"),
        .testTarget(name: "ParserTests", dependencies: ["ReceiptParser", "ReceiptModel", "ReceiptSupport", "ReceiptEval"]),
        .testTarget(name: "DrawingTests", dependencies: ["ReceiptDrawing", "ReceiptModel"]),
        .testTarget(name: "PipelineTests", dependencies: [
            "ReceiptIngest", "ReceiptOCR", "ReceiptParser", "ReceiptPipeline", "ReceiptsCLI", "ReceiptModel", "ReceiptSupport", "ReceiptStore", "ReceiptEval",
            "ReceiptTestSupport", "ReceiptHostileInputs", "ReceiptDrawing",
        ]),
        .testTarget(name: "StoreTests", dependencies: [
            "CSQLite", "ReceiptStore", "ReceiptInventory", "ReceiptReconcile", "ReceiptsCLI", "ReceiptModel", "ReceiptSupport", "ReceiptParser", "ReceiptPipeline",
            "ReceiptOCR", "ReceiptIngest", "ReceiptTestSupport", "ReceiptDrawing", "ReceiptLearning",
        ]),
    ],
    swiftLanguageModes: [.v6]
)
