// swift-tools-version:6.0
import PackageDescription

// An app that embeds the receipts library: it depends on the ReceiptKit product alone (no command line).
let package = Package(
    name: "embed",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "receipts", path: "../..")],
    targets: [
        .executableTarget(name: "embed", dependencies: [.product(name: "ReceiptKit", package: "receipts")]),
    ],
    swiftLanguageModes: [.v6]
)
