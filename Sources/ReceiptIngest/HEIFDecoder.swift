internal import CHeif
import Foundation
import ReceiptModel

/// HEIC/HEIF (the iPhone's photos) and AVIF through libheif: the primary image, with its
/// rotation and mirroring (`irot`/`imir`) applied by libheif as it decodes, as grey pixels
/// (the luma plane: ingest turns every page grey anyway). The image's size is checked
/// against the limits from its header (`ispe`) before any pixel is decoded.
public struct HEIFDecoder: ImageDecoder {
    public init() {}

    public var formats: [ImageFormat] { [.heif, .avif] }

    /// ISO-BMFF `ftyp` box with a HEIF or AVIF brand (major or compatible).
    public func sniff(_ data: Data) -> SniffedImage? {
        let b = [UInt8](data.prefix(64))
        guard b.count >= 16, b[4...7].elementsEqual("ftyp".utf8) else { return nil }
        let size = min(b.count, Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3]))
        var brands = [String(decoding: b[8..<12], as: UTF8.self)]
        var i = 16
        while i + 4 <= size { brands.append(String(decoding: b[i..<(i + 4)], as: UTF8.self)); i += 4 }
        if brands.contains(where: { ["avif", "avis"].contains($0) }) { return SniffedImage(format: .avif) }
        if brands.contains(where: { ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains($0) }) {
            return SniffedImage(format: .heif)
        }
        return nil
    }

    public func decode(_ data: Data, sniffed: SniffedImage, name: String, limits: DecodeLimits) throws(IngestError) -> [DecodedPage] {
        let format = sniffed.format
        let result: Result<PageImage, IngestError> = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, let context = HEIFContext() else {
                return .failure(IngestError(file: name, reason: .decodeFailed(format)))
            }
            if let e = HEIFContext.check(heif_context_read_from_memory_without_copy(context.handle, base, raw.count, nil), format, name,
                                         maxPixels: limits.maxPixels) {
                return .failure(e)
            }
            var handle: OpaquePointer?
            if let e = HEIFContext.check(heif_context_get_primary_image_handle(context.handle, &handle), format, name) {
                return .failure(e)
            }
            guard let handle else { return .failure(IngestError(file: name, reason: .decodeFailed(format))) }
            defer { heif_image_handle_release(handle) }
            // The size after the transforms, from the header: nothing decoded yet.
            let (w, h) = (Int(heif_image_handle_get_width(handle)), Int(heif_image_handle_get_height(handle)))
            do { try limits.check(width: w, height: h, name: name) } catch let e as IngestError { return .failure(e) } catch {
                return .failure(IngestError(file: name, reason: .decodeFailed(format)))
            }
            var image: OpaquePointer?
            var rgb = false
            var decoded = heif_decode_image(handle, &image, heif_colorspace_monochrome, heif_chroma_monochrome, nil)
            // libheif 1.15 cannot convert the image it assembles from a grid of grey tiles to monochrome
            // ("Unsupported color conversion"): take that one as RGB and make it grey here.
            if decoded.code == heif_error_Unsupported_feature, decoded.subcode == heif_suberror_Unsupported_color_conversion {
                decoded = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil)
                rgb = true
            }
            if let e = HEIFContext.check(decoded, format, name) {
                return .failure(e)
            }
            guard let image else { return .failure(IngestError(file: name, reason: .decodeFailed(format))) }
            defer { heif_image_release(image) }
            var stride: Int32 = 0
            if rgb { return Self.grey(fromRGB: image, name: name, format: format) }
            let (iw, ih) = (Int(heif_image_get_width(image, heif_channel_Y)), Int(heif_image_get_height(image, heif_channel_Y)))
            guard iw > 0, ih > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_Y, &stride), Int(stride) >= iw,
                  let page = PageImage(name: name, width: iw, height: ih, bytesPerPixel: 1, bytesPerRow: Int(stride),
                                       pixels: Array(UnsafeBufferPointer(start: plane, count: Int(stride) * ih))) else {
                return .failure(IngestError(file: name, reason: .decodeFailed(format)))
            }
            return .success(page)
        }
        return [DecodedPage(try result.get())]
    }

    /// An interleaved-RGB image as grey pixels (`PageImage.grey`, as the PDF renderer makes them).
    private static func grey(fromRGB image: OpaquePointer, name: String, format: ImageFormat) -> Result<PageImage, IngestError> {
        var stride: Int32 = 0
        let (w, h) = (Int(heif_image_get_width(image, heif_channel_interleaved)), Int(heif_image_get_height(image, heif_channel_interleaved)))
        guard w > 0, h > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride), Int(stride) >= 3 * w else {
            return .failure(IngestError(file: name, reason: .decodeFailed(format)))
        }
        let page = PageImage.grey(name: name, width: w, height: h) { x, y in
            let p = plane + y * Int(stride) + 3 * x
            return (Int(p[0]), Int(p[1]), Int(p[2]))
        }
        guard let page else {
            return .failure(IngestError(file: name, reason: .decodeFailed(format)))
        }
        return .success(page)
    }
}

/// Owns one `heif_context`.
///
/// Used by one decode call on one thread and freed at its end; never shared.
private final class HEIFContext {
    let handle: OpaquePointer

    init?() {
        guard let h = heif_context_alloc() else { return nil }
        handle = h
    }

    deinit { heif_context_free(handle) }

    /// A libheif error as ours, naming the file; nil for success.
    static func check(_ e: heif_error, _ format: ImageFormat, _ name: String, maxPixels: Int = 0) -> IngestError? {
        guard e.code != heif_error_Ok else { return nil }
        let message = e.message.map { String(cString: $0) } ?? "error \(e.code.rawValue)"
        switch (e.code, e.subcode) {
        case (heif_error_Invalid_input, heif_suberror_End_of_data):
            return IngestError(file: name, reason: .truncated(format))
        case (_, heif_suberror_Security_limit_exceeded):
            // libheif refuses a side over 32768 while reading the header, before our limit is asked:
            // "… Image size 100000x100000 exceeds the maximum image size 32768x32768".
            if let r = message.range(of: "Image size "),
               case let dims = message[r.upperBound...].prefix(while: { !$0.isWhitespace }).split(separator: "x").compactMap({ Int($0) }),
               dims.count == 2 {
                return IngestError(file: name, reason: .tooLarge(width: dims[0], height: dims[1], limit: maxPixels))
            }
            return IngestError(file: name, reason: .damaged(format, "over libheif's security limits (\(message))"))
        case (heif_error_Unsupported_feature, _), (heif_error_Unsupported_filetype, _):
            return IngestError(file: name, reason: .damaged(format, "not supported by this libheif: \(message)"))
        default:
            return IngestError(file: name, reason: .damaged(format, message))
        }
    }
}
