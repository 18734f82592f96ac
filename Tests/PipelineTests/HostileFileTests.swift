import Foundation
import Testing
import ReceiptHostileInputs
@testable import ReceiptIngest
import ReceiptModel
import ReceiptSupport

/// Malformed images through the real `receipts` binary: each ends in exactly one `error:` line
/// naming the file and exit 3, and nothing the image libraries say reaches stderr.
@Suite("Hostile files", .serialized)
struct HostileFileTests {
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: Repo.fixtures + "/formats/" + name))
    }

    /// The eight images of issue 16 whose libraries printed their own lines: libpng (width 0,
    /// bit depth, IDAT too large), libjpeg (65535 wide, height 0, premature end), Leptonica (BMP, TIFF).
    static func malformed() throws -> [(name: String, data: Data)] {
        let png = try fixture("receipt.png"), jpg = try fixture("receipt.jpg"), bmp = try fixture("receipt.bmp"), tif = try fixture("receipt.tif")
        return [
            ("w0.png", try #require(HostileImages.pngSize(png, width: 0, height: 140))),
            ("bitdepth.png", try #require(HostileImages.pngBitDepth(png, 3))),
            ("bigidat.png", try #require(HostileImages.pngChunkLength(png, type: "IDAT", length: 0x7FFF_FFF0))),
            ("wide.jpg", try #require(HostileImages.jpegSize(jpg, width: 65535, height: 140))),
            ("h0.jpg", try #require(HostileImages.jpegSize(jpg, width: 520, height: 0))),
            ("premature.jpg", jpg.prefix(jpg.count / 2) + Data([0xFF, 0xD9])),
            ("size.bmp", try #require(HostileImages.bmpSize(bmp, width: 4736, height: 140))),
            ("stripoff.tif", try #require(HostileImages.tiffStripOffsets(tif, 0x7FFF_FFF0))),
        ]
    }

    @Test func libraryMessagesNeverReachStderr() throws {
        let dir = try TempDir()
        let files = try Self.malformed().map { f in
            let p = dir.file(f.name)
            _ = FileManager.default.createFile(atPath: p, contents: f.data)
            return p
        }
        let r = try runExecutable("receipts", ["parse"] + files)
        #expect(r.code == 3)
        let lines = r.err.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == files.count, "stderr:\n\(r.err)")
        for (file, line) in zip(files, lines) {
            #expect(line.hasPrefix("error: \(file): "), "stderr:\n\(r.err)")
        }
        // The library's words are kept as the detail of the error.
        #expect(r.err.contains("w0.png: the PNG data could not be decoded (corrupt image) [libpng: Image width is zero in IHDR"))
        #expect(r.err.contains("[libpng: Image width is zero in IHDR"))
        #expect(r.err.contains("[libjpeg: Corrupt JPEG data: premature end of data segment"))
    }

    /// Every structured variant of every format (sizes huge and zero, truncation at each segment,
    /// bad CRCs and chunk lengths, TIFF offsets and IFD loops, …) through the ingest stage in a real
    /// process (`receipts-fuzz image`, the fuzz target's replayer): each ends, and nothing reaches stderr.
    @Test func everyStructuredVariantEndsQuietly() throws {
        let dir = try TempDir()
        var files: [String] = []
        var names: [String: String] = [:]
        for name in IngestTests.formats + ["receipt.heic", "receipt-text.pdf"] {
            for (i, v) in HostileImages.variants(of: try Self.fixture(name)).enumerated() {
                let p = dir.file("\(name)-\(i)")
                _ = FileManager.default.createFile(atPath: p, contents: v.data)
                files.append(p)
                names[p] = v.name
            }
        }
        #expect(files.count >= 100)
        #expect(files.filter { names[$0]!.hasPrefix("heic") }.count >= 20)
        #expect(files.filter { names[$0]!.hasPrefix("pdf") }.count >= 20)
        let r = try runExecutable("receipts-fuzz", ["image"] + files)
        #expect(r.code == 0)
        #expect(r.err == "", "a library wrote to stderr:\n\(r.err)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == files.count + 1)
        // Time and memory bounded: no variant takes long (a debug build), the process stays small.
        for line in lines.dropLast() {
            guard let open = line.lastIndex(of: "("), let s = Double(line[line.index(after: open)...].prefix { $0 != " " }) else {
                Issue.record("no time in \(line)"); continue
            }
            let file = String(line[..<line.index(open, offsetBy: -6)])
            #expect(s < 10, "\(names[file] ?? file) took \(s) s")
        }
        let peak = try #require(lines.last.flatMap { Int($0.dropFirst("peak RSS: ".count).prefix { $0.isNumber }) }, "\(lines.last ?? "")")
        #expect(peak < 600, "peak RSS \(peak) MB")
    }

    /// The HEIC grid builder makes a file libheif reads (so the hostile grids test the grid path),
    /// and each hostile PDF is a PDF Poppler opens or refuses for what was done to it.
    @Test func theHEICGridAndPDFBuildersMakeReadableFiles() throws {
        let heic = try Self.fixture("receipt.heic")
        let original = try Ingest.load(data: heic, name: "r.heic")
        let grid = try #require(HostileImages.heicGrid(heic, rows: 1, columns: 1, width: UInt32(original.pages[0].originalWidth),
                                                        height: UInt32(original.pages[0].originalHeight)))
        let fromGrid = try Ingest.load(data: grid, name: "grid.heic")
        #expect(fromGrid.pages[0].originalWidth == original.pages[0].originalWidth)
        #expect(fromGrid.pages[0].originalHeight == original.pages[0].originalHeight)
        // The same picture (libheif 1.15 assembles a grid in colour; the decoder makes it grey again).
        let (a, b) = (original.pages[0].pageImage, fromGrid.pages[0].pageImage)
        #expect(a.width == b.width && a.height == b.height)
        var diff = 0
        for y in 0..<min(a.height, b.height) {
            for x in 0..<min(a.width, b.width) { diff += abs(Int(a.pixels[y * a.bytesPerRow + x]) - Int(b.pixels[y * b.bytesPerRow + x])) }
        }
        #expect(Double(diff) / Double(a.width * a.height) < 4, "mean difference \(Double(diff) / Double(a.width * a.height))")
        let pdf = try #require(HostileImages.pdfVariants().first { $0.name == "pdf (valid)" })
        let page = try Ingest.load(data: pdf.data, name: "p.pdf")
        #expect(page.pages[0].textLayer?.lines.first?.text == "TOTAL 12.50")
    }

    /// A page of 2³¹ points square is refused from its size, before a pixel is drawn, and the
    /// refusal gives the size the page claims (it said 1000000000×1000000000, a clamp, before).
    @Test func aHugeMediaBoxIsRefusedWithTheSizeItClaims() throws {
        let pdf = try #require(HostileImages.pdfVariants().first { $0.name == "pdf MediaBox 2^31" })
        #expect(throws: IngestError(file: "big.pdf", reason: .tooLarge(width: 4_294_967_296, height: 4_294_967_296, limit: 60_000_000))) {
            try Ingest.load(data: pdf.data, name: "big.pdf")
        }
    }

    /// The mutations themselves take any bytes (fuzzing found pngSize trapping on a 2-byte IHDR).
    @Test func variantsOfBrokenInputsDoNotTrap() throws {
        let png = try Self.fixture("receipt.png")
        let shortIHDR = HostileImages.png([HostileImages.PNGChunk(type: "IHDR", data: Data([0, 1])), HostileImages.PNGChunk(type: "IEND", data: Data())])
        for data in [shortIHDR, png.prefix(40), png.prefix(8), try Self.fixture("receipt.jpg").prefix(30), try Self.fixture("receipt.tif").prefix(10), Data([0x42, 0x4D])] {
            _ = HostileImages.variants(of: data)
        }
        #expect(HostileImages.pngSize(shortIHDR, width: 1, height: 1) == nil)
        // The HEIC mutations on their own output (`make fuzz` found 255 × a huge ispe width
        // overflowing) and on cut HEICs and PDFs.
        let heic = try Self.fixture("receipt.heic"), pdf = try Self.fixture("receipt-text.pdf")
        let hugeTile = try #require(HostileImages.heicSize(heic, width: .max, height: .max))
        #expect(!HostileImages.variants(of: hugeTile).isEmpty)
        for data in [heic.prefix(13), heic.prefix(40), heic.prefix(99), heic.prefix(400), pdf.prefix(6), pdf.prefix(60)] {
            _ = HostileImages.variants(of: data)
        }
    }

    // MARK: Poppler's bare fprintf

    /// A PDF whose embedded font cairo cannot load (found by `make fuzz`): Poppler's Cairo font
    /// engine prints `some font thing failed` with a bare fprintf, once per attempt, no hook to route it.
    /// The real binary's stderr stays empty (the file parses), and Poppler's words are kept as a step.
    @Test func popplersBareFprintfNeverReachesStderr() throws {
        let file = Repo.fixtures + "/fuzz/pdf-font-stderr.pdf"
        let r = try runExecutable("receipts", ["parse", file])
        #expect(r.code == 0)
        #expect(r.err == "", "Poppler wrote to stderr:\n\(r.err)")
        #expect(r.out.contains("Chapter & Verse Books Ltd"))
        let json = try runExecutable("receipts", ["parse", "--json", file])
        #expect(json.err == "")
        #expect(json.out.contains("Poppler said: some font thing failed"), "\(json.out)")
        // With a bad file beside it, the tool's own error line still reaches stderr, and only that.
        let dir = try TempDir()
        _ = FileManager.default.createFile(atPath: dir.file("bad.png"), contents: Data("not a png".utf8))
        let both = try runExecutable("receipts", ["parse", file, dir.file("bad.png"), file])
        #expect(both.code == 3)
        let lines = both.err.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("error: \(dir.file("bad.png")): "), "stderr:\n\(both.err)")
    }

    /// In one process: asked to (as the tool asks), the decoder keeps what Poppler said, and descriptor 2 is itself
    /// again afterwards. (Other tests may be reading PDFs meanwhile: descriptor 2 is looked at with no capture under
    /// way.) The test runner prints its progress to descriptor 2 from other threads, and a line it prints while the
    /// PDF is read lands in the same capture (why the capture is off by default): the step is asked to hold
    /// Poppler's line, not to be only that.
    @Test func thePDFDecoderKeepsWhatPopplerSaidWhenAsked() throws {
        var options = IngestOptions()
        options.capturesLibraryStderr = true
        let file = try Ingest.load(path: Repo.fixtures + "/fuzz/pdf-font-stderr.pdf", options: options)
        let said = file.pages.first?.steps.filter { $0.hasPrefix("Poppler said: ") } ?? []
        #expect(said.count == 1, "\(file.pages.map(\.steps))")
        #expect(said.first.map { $0.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.contains { $0.hasSuffix("some font thing failed") } } == true, "\(said)")
        let (two, own) = try StandardError.withoutCapture { (try Self.identity(2), try Self.identity(StandardError.fd)) }
        #expect(two == own)
    }

    /// A program that embeds the library keeps its descriptor 2: by default the decoder points it nowhere else, so
    /// Poppler's line reaches it (here, a capture this test makes) and no step claims it.
    /// (Were the decoder to capture too, its capture, inside this one, would take Poppler's line.)
    @Test func aLibraryUserKeepsItsStderrByDefault() throws {
        let (file, said) = try StandardError.capturing { try Ingest.load(path: Repo.fixtures + "/fuzz/pdf-font-stderr.pdf") }
        #expect(said.split(separator: "\n").contains { $0.hasSuffix("some font thing failed") }, "\(said)")
        #expect(!(file.pages.first?.steps.contains { $0.hasPrefix("Poppler said") } ?? true), "\(file.pages.map(\.steps))")
    }

    /// While Poppler's output is captured, descriptor 2 is a temporary file, but the tool's own
    /// stderr (`StandardError.fd`, where the console writes) is still the original one.
    @Test func theToolsOwnStderrIsNotCaptured() throws {
        let original = try StandardError.withoutCapture { try Self.identity(2) }
        #expect(try Self.identity(StandardError.fd) == original)
        let (inside, said) = StandardError.capturing { () -> (two: [Int], own: [Int]) in
            _ = "from a library\n".withCString { write(2, $0, strlen($0)) }
            return ((try? Self.identity(2)) ?? [], (try? Self.identity(StandardError.fd)) ?? [])
        }
        // A line the test runner prints meanwhile (from another thread) may land here too.
        #expect(said.split(separator: "\n").contains("from a library"), "\(said)")
        #expect(inside.two != original)
        #expect(inside.own == original)
        #expect(try StandardError.withoutCapture { try Self.identity(2) } == original)
    }

    /// Device and inode of what a descriptor points at.
    static func identity(_ fd: Int32) throws -> [Int] {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw CocoaError(.fileReadUnknown) }
        return [Int(st.st_dev), Int(st.st_ino)]
    }

    // MARK: The reason given is the true one

    @Test func aJPEGWiderThanLibjpegReadsIsOverTheMaximumNotTruncated() throws {
        let jpg = try Self.fixture("receipt.jpg")
        let wide = try #require(HostileImages.jpegSize(jpg, width: 65535, height: 140))
        #expect(throws: IngestError(file: "wide.jpg", reason: .sideTooLong(width: 65535, height: 140, limit: 65500, format: .jpeg))) {
            try Ingest.load(data: wide, name: "wide.jpg")
        }
        let square = try #require(HostileImages.jpegSize(jpg, width: 65535, height: 65535))
        #expect(throws: IngestError(file: "huge.jpg", reason: .tooLarge(width: 65535, height: 65535, limit: 60_000_000))) {
            try Ingest.load(data: square, name: "huge.jpg")
        }
        let dir = try TempDir()
        _ = FileManager.default.createFile(atPath: dir.file("wide.jpg"), contents: wide)
        let r = try runExecutable("receipts", ["parse", dir.file("wide.jpg")])
        #expect(r.code == 3)
        #expect(r.err == "error: \(dir.file("wide.jpg")): image is 65535×140 pixels, over the JPEG decoder's maximum of 65500 pixels a side\n")
    }

    @Test func aFIFONamedLikeAnImageIsNotARegularFile() throws {
        let dir = try TempDir()
        let fifo = dir.file("x.jpg")
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(throws: IngestError(file: fifo, reason: .notRegularFile)) { try Ingest.load(path: fifo) }
        let r = try runExecutable("receipts", ["parse", fifo])
        #expect(r.code == 3)
        #expect(r.err == "error: \(fifo): not a regular file (a FIFO, socket or device), not read\n")
        let b = try runExecutable("receipts", ["batch", "--quiet", "--store", dir.file("s.sqlite"), fifo])
        #expect(b.code == 3)
        #expect(b.err.contains("not a regular file"), "\(b.err)")
    }

    // MARK: Paths

    @Test func aSymlinkLoopInABatchFolderEnds() throws {
        let dir = try TempDir()
        let folder = dir.file("receipts")
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Repo.fixtures + "/formats/receipt.png", toPath: folder + "/sub/a.png")
        try FileManager.default.createSymbolicLink(atPath: folder + "/sub/loop", withDestinationPath: folder)
        try FileManager.default.createSymbolicLink(atPath: folder + "/self.png", withDestinationPath: folder + "/self.png")
        let r = try runExecutable("receipts", ["batch", "--quiet", "--no-second-pass", "--store", dir.file("s.sqlite"), folder])
        // The image once; the link to a folder is not followed; the self-link is a file that cannot be read.
        #expect(r.err.contains("2 read: 1 parsed") || r.err.contains("2 read: 0 parsed, 1 need review"), "\(r.err)")
        #expect(r.err.contains("self.png: cannot read the file: too many levels of symbolic links") || r.err.contains("self.png: cannot read the file"), "\(r.err)")
        #expect(r.code == 3)
    }
}
