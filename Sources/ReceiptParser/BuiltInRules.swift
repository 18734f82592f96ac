import Foundation

/// The parser's built-in rules: keywords and skip-lists, as plain JSON.
/// Edit here to change the defaults; users extend them without recompiling with
/// `receipts parse --rules FILE` (same format; lists are added, weights override).
/// `receipts rules` prints this text.
///
/// The rules are the parser's (`ParserRules` decodes them), but their text lives here, below every stage,
/// so that the stages that do not parse read the same lists: the reconciler takes its legal forms from
/// `legalForms` instead of keeping a list of its own.
public enum BuiltInRules {
    public static let json = #"""
{
  "comment": "Keywords and skip-lists of the receipt parser. Matched case-insensitively on whole words, after OCR clean-up. Add a language by adding words here or in a file passed with --rules (its lists are added to these). Weights are 0...1: how strongly a keyword marks the field.",
  "total": {
    "keywords": {
      "grand total": 1.0, "total amount": 0.95, "total amt": 0.95, "amount due": 0.95, "total due": 0.95, "amount payable": 0.95,
      "total payable": 0.95, "due": 0.7, "balance due": 0.9, "bal due": 0.9, "balance owing": 0.9, "total rm": 0.95, "total (rm)": 0.95, "total sales": 0.9, "total incl": 0.9,
      "total gst incl": 0.9, "total gst inclusive": 0.9, "total sst incl": 0.9, "total vat incl": 0.9, "total tax incl": 0.9,
      "nett total": 0.95, "net total": 0.9, "total nett": 0.95, "nett amount": 0.9, "net amount": 0.85, "total inclusive": 0.9,
      "rounded total": 0.95, "total rounded": 0.95, "total after rounding": 0.95, "total to pay": 0.95, "to pay": 0.8, "amount to be paid": 0.95, "to be paid": 0.9,
      "total": 0.85, "nett": 0.75, "net": 0.5, "amount": 0.55, "balance": 0.6, "jumlah": 0.75, "jumlah besar": 0.9,
      "total ttc": 1.0, "montant ttc": 0.95, "net a payer": 0.95, "net à payer": 0.95, "a payer": 0.85, "à payer": 0.85,
      "summe": 0.95, "gesamtsumme": 1.0, "gesamt": 0.9, "zu zahlen": 0.95, "endbetrag": 0.95, "betrag": 0.6,
      "totale": 0.9, "importe total": 0.95, "total a pagar": 0.95, "totaal": 0.9, "te betalen": 0.9, "att betala": 0.9,
      "summa": 0.85, "yhteensä": 0.9, "i alt": 0.85, "totalt": 0.85, "sum": 0.6
    },
    "distractors": [
      "subtotal", "sub total", "sub-total", "sub ttl", "total qty", "total quantity", "qty total", "total items", "total item",
      "item count", "no of items", "no. of items", "total savings", "you saved", "savings", "total discount", "discount",
      "total tax", "tax", "gst", "sst", "vat", "service charge", "svc", "change", "change due", "cash", "tender", "tendered",
      "rounding", "round adj", "rounding adj", "adjustment", "tip", "gratuity", "total excl", "excl", "exclusive",
      "zwischensumme", "mwst", "ust", "netto", "rückgeld", "ruckgeld", "gegeben", "bar", "tva", "ht", "total ht",
      "rendu", "espèces", "points", "point", "balance points", "deposit", "paid", "payment", "visa", "mastercard", "card",
      "credit", "debit", "eftpos", "total weight", "weight", "kg", "total units", "pcs", "units",
      "excluding", "excluding gst", "excl gst", "excl tax", "before tax", "before gst", "exclusive of gst",
      "gst amt", "tax amt", "gross amount", "gross total", "total gst", "total sst", "total vat", "supplies", "rated supplies",
      "included in total", "incl in total", "includes in total", "taxes", "total taxes", "vat total", "tax total", "gst total", "item total", "items total", "total included", "total paid", "accepted total"
    ],
    "tables": ["gst summary", "tax summary", "vat summary", "summary", "tax code", "tax rate", "vat rate", "mwst-satz", "steuersatz", "taux tva"]
  },
  "subtotal": {
    "keywords": {"subtotal": 1.0, "sub total": 1.0, "sub-total": 1.0, "sub ttl": 0.9, "zwischensumme": 1.0, "total ht": 0.9, "prix ht": 0.9, "montant ht": 0.9, "net sales": 0.9, "total excl": 0.9, "total excl. gst": 0.9, "total exclusive": 0.9, "sous-total": 1.0, "sous total": 1.0, "subtotale": 1.0, "subtotaal": 1.0, "total before tax": 0.9, "subttl": 1.0, "sub tot": 0.9, "subt": 0.8, "item total": 0.8, "items total": 0.8, "base imponible": 0.9}
  },
  "tax": {
    "keywords": {"tax": 0.9, "sales tax": 1.0, "gst": 0.9, "sst": 0.9, "vat": 0.9, "mwst": 0.95, "ust": 0.8, "tva": 0.95, "iva": 0.95, "btw": 0.95, "moms": 0.95, "total tax": 1.0, "gst 6%": 1.0, "tax total": 1.0, "hst": 0.9, "pst": 0.8,
                 "taxes": 0.9, "total taxes": 1.0, "tax1": 0.9, "tax2": 0.9, "tax3": 0.9, "v a t": 0.9, "cgst": 0.9, "sgst": 0.9,
                 "qst": 0.8, "tps": 0.8, "tvq": 0.8, "impuesto": 0.9, "impuestos": 0.9, "cuota": 0.7, "pajak": 0.9, "ppn": 0.9},
    "exclude": ["tax invoice", "tax inv", "incl tax", "tax incl", "gst reg", "gst id", "gst no", "registration", "registered", "tax id", "vat no", "vat reg", "ust-id", "steuernr", "tax code", "gst summary", "excl", "amount(rm)", "amt(rm)", "invoice", "incl", "including", "inclusive", "excluding", "exclusive", "inkl", "zzgl", "ttc", "ht"]
  },
  "rounding": {"keywords": {"rounding": 1.0, "round adj": 1.0, "rounding adj": 1.0, "rounding adjustment": 1.0, "adj": 0.5, "round": 0.7}},
  "discount": {"keywords": {"discount": 1.0, "disc": 0.8, "less": 0.5, "rabatt": 1.0, "remise": 1.0, "savings": 0.8}},
  "cash": {"keywords": {"cash": 1.0, "tender": 0.9, "tendered": 1.0, "cash tendered": 1.0, "paid": 0.7, "bar": 0.9, "gegeben": 1.0, "espèces": 1.0, "especes": 1.0, "tunai": 1.0, "contante": 1.0, "contanti": 1.0, "efectivo": 1.0, "received": 0.8, "amount paid": 1.0, "amount tendered": 1.0, "accepted total": 1.0}, "exclude": ["to be paid", "amount to be paid", "to pay", "paid out"]},
  "change": {"keywords": {"change": 1.0, "change due": 1.0, "rückgeld": 1.0, "ruckgeld": 1.0, "rendu": 1.0, "monnaie": 0.9, "baki": 1.0, "wechselgeld": 1.0, "kembali": 1.0, "kembalian": 1.0}, "exclude": ["charge", "charges", "service charge", "surcharge"]},
  "date": {
    "keywords": {"date": 1.0, "dated": 1.0, "tarikh": 1.0, "datum": 1.0, "fecha": 1.0, "data": 0.8, "le": 0.3, "date/time": 1.0, "inv date": 1.0, "invoice date": 1.0, "bill date": 1.0, "trans date": 1.0, "txn date": 1.0},
    "distractors": ["exp", "expiry", "expires", "valid until", "valid till", "valid thru", "best before", "due date", "return by", "returns", "period", "birth", "dob", "member since", "promo", "redeem", "printed"],
    "months": {
      "jan": 1, "january": 1, "januari": 1, "januar": 1, "janvier": 1, "janv": 1, "enero": 1, "ene": 1, "gennaio": 1, "gen": 1, "jänner": 1,
      "feb": 2, "february": 2, "februari": 2, "februar": 2, "février": 2, "fevrier": 2, "févr": 2, "fevr": 2, "febrero": 2, "febbraio": 2,
      "mar": 3, "march": 3, "mac": 3, "mac.": 3, "mars": 3, "märz": 3, "maerz": 3, "mär": 3, "marzo": 3, "maart": 3, "mrt": 3,
      "apr": 4, "april": 4, "avril": 4, "avr": 4, "abril": 4, "abr": 4, "aprile": 4,
      "may": 5, "mei": 5, "mai": 5, "mayo": 5, "maggio": 5, "mag": 5,
      "jun": 6, "june": 6, "juni": 6, "juin": 6, "junio": 6, "giugno": 6, "giu": 6,
      "jul": 7, "july": 7, "julai": 7, "juli": 7, "juillet": 7, "juil": 7, "julio": 7, "luglio": 7, "lug": 7,
      "aug": 8, "august": 8, "ogos": 8, "ogo": 8, "août": 8, "aout": 8, "agosto": 8, "ago": 8, "augustus": 8,
      "sep": 9, "sept": 9, "september": 9, "septembre": 9, "septiembre": 9, "settembre": 9, "set": 9,
      "oct": 10, "october": 10, "okt": 10, "oktober": 10, "octobre": 10, "octubre": 10, "ottobre": 10, "ott": 10,
      "nov": 11, "november": 11, "novembre": 11, "noviembre": 11,
      "dec": 12, "december": 12, "dis": 12, "disember": 12, "dez": 12, "dezember": 12, "décembre": 12, "decembre": 12, "déc": 12, "diciembre": 12, "dic": 12, "dicembre": 12
    }
  },
  "vendor": {
    "legal_forms": [
      "sdn bhd", "sdn. bhd.", "sdn bhd.", "s/b", "s b", "bhd", "berhad", "enterprise", "enterprises", "trading", "plt", "llp",
      "ltd", "ltd.", "limited", "llc", "l.l.c.", "inc", "inc.", "incorporated", "corp", "corp.", "corporation", "co.", "company", "plc",
      "pte ltd", "pty ltd", "pty", "gmbh", "gmbh & co. kg", "kg", "ag", "e.k.", "ohg", "ug", "sarl", "s.a.r.l.", "sas", "s.a.s.", "sa", "s.a.",
      "eurl", "srl", "s.r.l.", "spa", "s.p.a.", "s.l.", "sl", "bv", "b.v.", "nv", "n.v.", "ab", "as", "a/s", "oy", "aps", "kk"
    ],
    "skip": [
      "tax invoice", "invoice", "simplified tax invoice", "receipt", "official receipt", "cash receipt", "sales receipt", "cash bill", "bill",
      "copy", "customer copy", "merchant copy", "reprint", "duplicate", "original", "welcome", "welcome to", "thank you", "thanks", "for shopping", "shopping with",
      "tel", "phone", "fax", "gst reg", "gst id", "gst no", "registration", "registered", "co reg", "co. reg", "company reg", "reg no", "roc", "business reg",
      "vat no", "vat reg", "ust-id", "steuer", "siret", "tva", "abn", "email", "www", "http", ".com", "open", "hours", "table", "cashier",
      "order", "date", "time", "company no", "co no", "desc", "description", "qty", "quantity", "item", "price", "amount",
      "returnable", "refundable", "exchangeable", "not returnable", "counter", "terminal", "member", "server", "feedback", "survey", "customer", "customers", "visiting", "dine in", "take out", "takeout", "eat in", "served by", "guest", "machine", "pos", "slip", "doc no", "page", "rechnung", "quittung", "kassenbon", "beleg", "facture", "ticket", "reçu"
    ],
    "address_words": [
      "jalan", "jln", "lorong", "taman", "tmn", "no.", "lot", "blok", "block", "street", "st.", "road", "rd", "avenue", "ave", "blvd",
      "boulevard", "lane", "drive", "suite", "floor", "level", "unit", "straße", "strasse", "str.", "platz", "weg", "rue", "avenue",
      "boulevard", "chemin", "via", "calle", "plaza", "kuala lumpur", "selangor", "johor", "penang", "malaysia", "seksyen", "bandar",
      "persiaran", "kawasan", "industri", "perindustrian", "shah alam", "petaling jaya", "puchong", "usj", "ss"
    ],
    "name_words": [
      "hardware", "stationery", "stationers", "restaurant", "restoran", "trading", "enterprise", "enterprises", "confectionery",
      "bakery", "bakeries", "house", "market", "supermarket", "hypermarket", "minimarket", "store", "stores", "kedai", "runcit",
      "pasar", "coffee", "kitchen", "foods", "beverage", "beverages", "services", "service", "marketing", "distribution",
      "distributor", "distributors", "holdings", "retail", "pharmacy", "healthcare", "motor", "motors", "electrical", "electronics",
      "furniture", "books", "bookstore", "bookstores", "petrol", "station", "noodle", "noodles", "chicken", "pizza", "seafood",
      "bistro", "garden", "timber", "supply", "supplies", "industries", "international", "global", "group", "centre", "center",
      "company", "corporation", "handicraft", "tailoring", "advertising", "textile", "textiles", "fashion", "beauty", "salon",
      "optical", "clinic", "medical", "dental", "florist", "gifts", "cakes", "bread", "kopitiam", "express", "petroleum",
      "automotive", "parts", "tyres", "boutique", "jewellery", "jewelry", "grocery", "groceries", "provision", "wholesale",
      "carry", "realty", "realties", "parking", "leisure", "resources", "machinery", "engineering", "construction", "printing",
      "sports", "laundry", "hotel", "grill", "steak", "sushi", "ramen", "burger", "dairy", "butcher", "delicatessen", "liquor",
      "wines", "spirits", "tobacco", "newsagent", "convenience", "drugstore", "trattoria", "ristorante", "pizzeria", "panetteria",
      "farmacia", "supermercado", "apotheke", "getranke", "getränke", "drogerie", "backerei", "bäckerei", "metzgerei", "boulangerie",
      "patisserie", "pâtisserie", "epicerie", "épicerie", "librairie", "pharmacie", "brasserie", "malaysia", "singapore",
      "restaurants"
    ]
  },
  "currency": {
    "symbols": {"rm": "MYR", "myr": "MYR", "$": "USD", "us$": "USD", "usd": "USD", "s$": "SGD", "sgd": "SGD", "a$": "AUD", "aud": "AUD",
                "c$": "CAD", "ca$": "CAD", "cad": "CAD", "€": "EUR", "eur": "EUR", "euro": "EUR", "£": "GBP", "gbp": "GBP", "chf": "CHF",
                "fr.": "CHF", "sek": "SEK", "nok": "NOK", "dkk": "DKK", "kr": "SEK", "¥": "JPY", "jpy": "JPY", "₹": "INR", "inr": "INR",
                "rs": "INR", "rp": "IDR", "idr": "IDR", "php": "PHP", "₱": "PHP", "thb": "THB", "฿": "THB", "nzd": "NZD", "hk$": "HKD", "hkd": "HKD"},
    "month_first": ["USD"],
    "dollar_hints": {"hst": "CAD", "pst": "CAD", "qst": "CAD", "tvq": "CAD", "tps": "CAD", "interac": "CAD", "abn": "AUD", "eftpos": "AUD", "ird": "NZD", "uen": "SGD", "nets": "SGD", "octopus": "HKD"}
  },
  "payment": {
    "card": ["visa", "mastercard", "master card", "amex", "american express", "debit", "credit", "card", "eftpos", "maestro", "discover", "girocard", "ec-karte", "cb", "carte", "contactless", "nfc", "apple pay", "google pay", "kartenzahlung"],
    "cash": ["cash", "tunai", "bar", "barzahlung", "espèces", "especes", "efectivo", "contanti", "kontant"]
  },
  "items": {
    "skip": ["tel", "fax", "gst reg", "gst id", "reg no", "vat no", "tax id", "cashier", "auth", "approval", "approved", "acct", "account", "card no", "points", "rewards", "reward", "loyalty", "member no", "balance", "thank you", "visa", "mastercard", "master card", "amex", "american express", "debit", "credit", "tender", "tendered", "change due", "you saved", "total savings", "item count", "items sold", "no of items", "total qty", "total items", "items",
             "regular price", "reg price", "original price", "orig price", "compare at", "price over", "you pay", "service charge", "service chg", "serv chg", "svc chg", "svc", "gratuity", "grat", "tip", "tips", "fee", "fees", "payment", "kaart",
             "due", "transfer", "transaction", "transaccion", "netto", "brutto", "gst no", "gstin"],
    "skip_alone": ["service", "servis", "cover", "coperto", "guest", "guests", "terminal"],
    "discount": ["discount", "disc", "coupon", "cpn", "savings", "saving", "promo", "promotion", "markdown", "mkdn", "instant savings", "member savings", "price reduction", "reduction", "off", "rabatt", "remise", "descuento", "sconto"],
    "void": ["void", "voided", "cancel", "cancelled", "canceled", "correction", "error corr", "storno", "annul", "annule"]
  },
  "receipt_number": {
    "keywords": ["invoice no", "invoice #", "inv no", "inv#", "inv.no", "receipt no", "receipt #", "rcpt no", "rcpt#", "bill no", "bill #", "doc no", "document no", "trans no", "transaction no", "txn no", "order no", "order #", "ticket no", "cash bill no", "cb no", "ref no", "no. resit", "resit no", "beleg-nr", "belegnr", "bon-nr", "bon nr", "rechnungsnr", "rechnung nr", "ticket n°", "facture n°", "n° ticket", "invoice", "receipt", "bill", "trans", "slip no", "check #", "chk", "transaction #", "trx"]
  }
}
"""#

    /// The legal forms of business names (`vendor.legal_forms`): "sdn bhd", "gmbh", "inc." …
    public static let legalForms: [String] = {
        let root = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
        let vendor = root?["vendor"] as? [String: Any]
        guard let forms = vendor?["legal_forms"] as? [String], !forms.isEmpty else {
            preconditionFailure("built-in rules hold no vendor.legal_forms")  // a defect in this file, caught by any test
        }
        return forms
    }()
}
