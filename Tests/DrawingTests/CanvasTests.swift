import ReceiptModel
import Testing
@testable import ReceiptDrawing

/// A white grey page.
func whitePage(_ w: Int, _ h: Int) -> PageImage {
    PageImage(width: w, height: h, bytesPerPixel: 1, pixels: [UInt8](repeating: 255, count: w * h))!
}

/// The pixels of `canvas` that are `colour`, as (x, y).
func painted(_ canvas: Canvas, _ colour: RGB) -> Set<[Int]> {
    var out = Set<[Int]>()
    for y in 0..<canvas.height { for x in 0..<canvas.width where canvas[x, y] == colour { out.insert([x, y]) } }
    return out
}

@Suite("Drawing: boxes, lines and labels on a page, in Swift")
struct CanvasTests {
    static let blue = RGB(0, 90, 230)

    @Test func aGreyPageBecomesGreyRGBWithAWhiteMargin() throws {
        let page = PageImage(width: 3, height: 2, bytesPerPixel: 1, bytesPerRow: 4, pixels: [10, 20, 30, 0, 40, 50, 60, 0])!
        let canvas = try #require(Canvas(page, marginRight: 2))
        #expect(canvas.width == 5 && canvas.height == 2)
        #expect(canvas[1, 0] == RGB(20, 20, 20) && canvas[2, 1] == RGB(60, 60, 60))
        #expect(canvas[3, 0] == .white && canvas[4, 1] == .white)
        let image = try #require(canvas.image(name: "drawn"))
        #expect(image.bytesPerPixel == 4 && image.bytesPerRow == 20)
        #expect(Array(image.pixels[4..<8]) == [20, 20, 20, 255])
    }

    /// A frame is centred on the box's edge rows and columns; an even width leans up and left.
    @Test(arguments: [(3, 1, 1), (2, 1, 0), (1, 0, 0)])
    func framesLieOnTheBoxEdges(_ thickness: Int, _ before: Int, _ after: Int) throws {
        var canvas = try #require(Canvas(whitePage(20, 20)))
        let box = BoundingBox(x: 5, y: 6, width: 8, height: 7)
        canvas.frame(box, thickness: thickness, Self.blue)
        var expected = Set<[Int]>()
        let (outerX, outerY) = ((box.x - before)...(box.maxX - 1 + after), (box.y - before)...(box.maxY - 1 + after))
        let (innerX, innerY) = ((box.x + after + 1)..<(box.maxX - 1 - before), (box.y + after + 1)..<(box.maxY - 1 - before))
        for y in outerY { for x in outerX where !(innerX.contains(x) && innerY.contains(y)) { expected.insert([x, y]) } }
        #expect(painted(canvas, Self.blue) == expected)
    }

    @Test func drawingIsClippedToThePicture() throws {
        var canvas = try #require(Canvas(whitePage(6, 8)))
        // Only the top edge's band (rows 0 to 2) is inside; a line across; text below the picture.
        canvas.frame(BoundingBox(x: -3, y: 1, width: 20, height: 20), thickness: 3, Self.blue)
        canvas.line(from: (-10, 5), to: (30, 5), Self.blue)
        canvas.text("WWWWWWWW", x: 2, baseline: 40, font: .size8, Self.blue)
        #expect(painted(canvas, Self.blue) == Set((0..<6).flatMap { x in [[x, 0], [x, 1], [x, 2], [x, 5]] }))
    }

    @Test func linesTakeOnePixelAStepAlongTheLongerAxis() throws {
        var canvas = try #require(Canvas(whitePage(12, 12)))
        canvas.line(from: (1, 1), to: (9, 5), Self.blue)
        // y = 1 + i / 2, rounded half up.
        #expect(painted(canvas, Self.blue) == Set((0...8).map { i in [1 + i, 1 + (i + 1) / 2] }))
        var steep = try #require(Canvas(whitePage(12, 12)))
        steep.line(from: (2, 10), to: (2, 3), Self.blue)
        #expect(painted(steep, Self.blue) == Set((3...10).map { [2, $0] }))
    }

    @Test func labelsSitOnTheirBaselineAndAdvanceByTheFontsWidths() throws {
        let font = BitmapFont.size8
        var canvas = try #require(Canvas(whitePage(200, 60)))
        canvas.text("TOTAL", x: 10, baseline: 40, font: font, Self.blue)
        let ink = painted(canvas, Self.blue)
        #expect(!ink.isEmpty)
        // Capitals end on the baseline row and reach up about the ascent.
        #expect(ink.map { $0[1] }.max() == 40)
        #expect(abs(40 - ink.map { $0[1] }.min()! - font.ascent) <= 2)
        #expect(ink.map { $0[0] }.min()! >= 10 && ink.map { $0[0] }.max()! < 10 + font.width(of: "TOTAL"))
        #expect(font.width(of: "TOTAL") == font.width(of: "TOT") + font.width(of: "AL") + font.kern)
    }

    @Test func charactersTheFontLacksAreDrawnAsQuestionMarks() throws {
        var a = try #require(Canvas(whitePage(60, 40))), b = try #require(Canvas(whitePage(60, 40)))
        a.text("é€", x: 2, baseline: 30, font: .size6, Self.blue)
        b.text("??", x: 2, baseline: 30, font: .size6, Self.blue)
        #expect(painted(a, Self.blue) == painted(b, Self.blue) && !painted(a, Self.blue).isEmpty)
        #expect(BitmapFont.size6.width(of: "é€") == BitmapFont.size6.width(of: "??"))
    }

    /// The generated font data adds up: 95 characters' metrics, and the bits their ink boxes need.
    @Test(arguments: [BitmapFont.size6, BitmapFont.size8])
    func fontDataIsWhole(_ font: BitmapFont) {
        #expect(font.glyphs.count == 95)
        let needed = font.glyphs.map { $0.inkWidth * $0.inkHeight }.reduce(0, +)
        #expect(font.data.count == 5 * 95 + (needed + 7) / 8)
        #expect(font.glyph(" ").inkWidth == 0 && font.glyph("W").inkWidth > font.glyph("i").inkWidth)
    }

    @Test func shrinkingAveragesThePixelsEachNewOneCovers() throws {
        let page = PageImage(width: 4, height: 2, bytesPerPixel: 1, pixels: [0, 100, 200, 200, 0, 100, 0, 0], resolution: (300, 300))!
        let small = try #require(page.shrunk(by: 0.5))
        #expect(small.width == 2 && small.height == 1 && small.resolution == (150, 150))
        #expect(small[0, 0] == 50 && small[1, 0] == 100)
        #expect(page.shrunk(by: 0) == nil && page.shrunk(by: 1.5) == nil)
    }

    @Test func aCropWithABoxIsInColourAndFitsTheSizeAsked() throws {
        let page = whitePage(1000, 300)
        let crop = try #require(Annotator.crop(page, region: BoundingBox(x: 0, y: 100, width: 1000, height: 100),
                                               box: BoundingBox(x: 100, y: 130, width: 400, height: 40), maxWidth: 500, maxHeight: 200))
        #expect(crop.width == 500 && crop.height == 50 && crop.bytesPerPixel == 4)
        let grey = try #require(Annotator.crop(page, region: BoundingBox(x: -50, y: -50, width: 100, height: 100)))
        #expect(grey.width == 50 && grey.height == 50 && grey.bytesPerPixel == 1)
        #expect(Annotator.crop(page, region: BoundingBox(x: 2000, y: 0, width: 10, height: 10)) == nil)
    }
}
