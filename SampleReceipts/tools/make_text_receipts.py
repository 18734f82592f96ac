#!/usr/bin/env python3
"""Writes SampleReceipts/text/: receipts of our own as true text, no image, for the parser alone.

German, French, Spanish and British till receipts, invented shop by shop (names, streets, items, tax
numbers), in the layout `receipts eval --truth-text` and `receipts-bench parse-text` read: `box/ID.txt`
(one `x1,y1,x2,y2,x3,y3,x4,y4,text` line per box, top to bottom) and `key/ID.json` (vendor, date
DD/MM/YYYY, total). Half of them have each item's name and price in boxes of their own, as a
sparse read or a labelled set gives them; the others one box a line, as a page read does.

What they are for: letters and signs that are not ASCII ("Rückgeld", "€", "Crème", "£", "Año") on
most lines, which the Malaysian scans and US photos of the dev sets hardly have, so that the parser's
speed on such receipts is measured (`make bench`) and its fast paths held to its general ones
(`HandScannerTests` read this set). Deterministic: the same files every run.

    python3 SampleReceipts/tools/make_text_receipts.py [OUT]   (default SampleReceipts/text)
"""
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "text")

DE = {
    "shops": [("Bäckerei Kühn", "Lindenstraße 4", "37073 Göttingen"),
              ("Frischmarkt Größner GmbH", "Am Mühlbach 17", "93047 Regensburg"),
              ("Baumarkt Schröder & Söhne", "Industriestraße 88", "47057 Duisburg"),
              ("Drogerie Weißhaupt", "Königsallee 3", "40212 Düsseldorf"),
              ("Café Süßholz", "Marktplatz 9", "79098 Freiburg i. Br."),
              ("Getränke Jäger OHG", "Schützenweg 21", "24103 Kiel")],
    "items": ["Vollkornbrötchen", "Käse Gouda jung", "Bio Äpfel 1kg", "Müsli Nuss-Frucht", "Weißwein Riesling",
              "Schwarzbrot", "Schlagsahne 200g", "Kaffee Bohnen 500g", "Grüner Tee", "Süßkartoffeln",
              "Hähnchenbrustfilet", "Joghurt Natur 3,8%", "Sonnenblumenöl", "Nudeln Fusilli", "Tomaten passiert",
              "Schrauben 4x40 (100 St.)", "Dübel 8mm", "Gießkanne 10 l", "Blumenerde 40 l", "Zahnbürste weich",
              "Duschgel Zitrone", "Mineralwasser 12x1,0", "Apfelschorle", "Brezel", "Quarktasche"],
    "money": lambda c: f"{c // 100},{c % 100:02d}",
    "price": ["{m} €", "{m} EUR", "€ {m}", "{m} € A", "{m} B"],
    "date": lambda d, m, y: f"{d:02d}.{m:02d}.{y}",
    "time": lambda h, mi: f"{h:02d}:{mi:02d}",
    "head": ["Tel. 0{n3} {n6}", "USt-IdNr. DE{n9}", "St.-Nr. {n3}/{n3}/{n5}"],
    "datetime": ["Datum: {d}  Uhrzeit: {t}", "{d} {t} Uhr", "Bon-Nr. {n4}   {d}   {t}"],
    "subtotal": "Zwischensumme", "total": ["SUMME", "Summe EUR", "Gesamtbetrag", "Zu zahlen"],
    "tax": "MwSt {r}%", "rates": [7, 19], "cash": "Gegeben Bar", "change": "Rückgeld",
    "card": ["Kartenzahlung girocard", "EC-Karte **** {n4}"],
    "qty": "{q} x {m} €", "weight": "{w} kg x {m} €/kg",
    "foot": ["Vielen Dank für Ihren Einkauf!", "Öffnungszeiten: Mo–Sa 7–20 Uhr", "Bitte Bon aufbewahren – Umtausch nur mit Bon",
             "Es bediente Sie: Jürgen"],
}
FR = {
    "shops": [("Boulangerie Pâtisserie Lefèvre", "12 rue de l'Église", "69002 Lyon"),
              ("Épicerie Fine Chênebourg", "3 place du Marché", "21000 Dijon"),
              ("Supérette Les Halles", "45 avenue Général Leclerc", "75014 Paris"),
              ("Librairie Côté Plage", "8 quai des Pêcheurs", "17000 La Rochelle"),
              ("Fromagerie Bérangère", "27 rue Thérèse", "31000 Toulouse")],
    "items": ["Baguette tradition", "Croissant au beurre", "Pain au chocolat", "Éclair café", "Crème fraîche épaisse",
              "Pâté de campagne", "Comté 18 mois", "Bœuf haché 5%", "Pêches jaunes", "Café moulu 250g",
              "Thé vert bio", "Pâtes complètes", "Côtes du Rhône 75cl", "Crêpes x6", "Galette des rois",
              "Cahier grands carreaux", "Roman poche", "Crayon à papier", "Bière blonde 33cl", "Œufs plein air x6"],
    "money": lambda c: f"{c // 100},{c % 100:02d}",
    "price": ["{m} €", "{m} EUR", "{m}€", "€{m}"],
    "date": lambda d, m, y: f"{d:02d}/{m:02d}/{y}",
    "time": lambda h, mi: f"{h:02d}h{mi:02d}",
    "head": ["Tél. 0{n1} {n2} {n2} {n2} {n2}", "SIRET {n9}{n5}", "TVA intracom. FR{n2}{n9}"],
    "datetime": ["Le {d} à {t}", "{d}   {t}", "Ticket n° {n4} du {d} {t}"],
    "subtotal": "Sous-total", "total": ["TOTAL TTC", "Total à payer", "Net à payer", "MONTANT TTC"],
    "tax": "TVA {r}%", "rates": [5.5, 20], "cash": "Espèces", "change": "Rendu monnaie",
    "card": ["Carte bancaire CB", "CB **** {n4}"],
    "qty": "{q} x {m} €", "weight": "{w} kg à {m} €/kg",
    "foot": ["Merci de votre visite, à bientôt !", "Ouvert du mardi au dimanche", "Échange sous 15 jours avec ticket",
             "Caissière : Hélène"],
}
ES = {
    "shops": [("Panadería Núñez", "Calle Mayor 14", "28013 Madrid"),
              ("Frutería La Huerta Española", "Avda. de Andalucía 33", "41007 Sevilla"),
              ("Ferretería Ibáñez S.L.", "Plaza de España 2", "50004 Zaragoza"),
              ("Café Señorío", "Calle Martín Álvarez 7", "37001 Salamanca")],
    "items": ["Pan de pueblo", "Jamón ibérico 100g", "Queso manchego", "Aceitunas aliñadas", "Piña natural",
              "Café con leche", "Tostada con tomate", "Zumo de naranja", "Ensaimada", "Tornillos cabeza plana",
              "Cinta americana", "Bombilla LED 9W", "Limones (malla)", "Champiñones 250g", "Turrón de Jijona"],
    "money": lambda c: f"{c // 100},{c % 100:02d}",
    "price": ["{m} €", "{m}€", "{m} EUR"],
    "date": lambda d, m, y: f"{d:02d}/{m:02d}/{y}",
    "time": lambda h, mi: f"{h:02d}:{mi:02d}",
    "head": ["Tfno. 9{n2} {n3} {n3}", "CIF B{n8}", "N.I.F. {n8}Z"],
    "datetime": ["Fecha: {d}  Hora: {t}", "{d} {t}", "Factura simplificada nº {n4}  {d}"],
    "subtotal": "Base imponible", "total": ["TOTAL", "Total a pagar", "TOTAL (IVA incl.)"],
    "tax": "IVA {r}%", "rates": [10, 21], "cash": "Efectivo", "change": "Cambio",
    "card": ["Tarjeta crédito", "VISA **** {n4}"],
    "qty": "{q} x {m} €", "weight": "{w} kg x {m} €/kg",
    "foot": ["¡Gracias por su visita!", "Conserve este ticket", "Le atendió: Begoña"],
}
GB = {
    "shops": [("Hartley & Daughters Hardware", "14 Mill Lane", "Leeds LS6 2AB"),
              ("The Corner Café", "2 St. Mary’s Row", "Bath BA1 1AA"),
              ("Pemberton’s Butchers", "77 High Street", "Ludlow SY8 1PZ"),
              ("Greenleaf Grocers Ltd", "9 Queen’s Parade", "Norwich NR2 4AT")],
    "items": ["Sourdough loaf", "Free range eggs x6", "Cheddar mature 400g", "Semi-skimmed milk 2pt", "Bramley apples",
              "Flat white", "Bacon bap", "Scone & jam", "Cumberland sausages", "Lamb chops x2",
              "Wood screws 4x30", "Masking tape 25mm", "Paint brush 2”", "Jacket potato", "Crème brûlée"],
    "money": lambda c: f"{c // 100}.{c % 100:02d}",
    "price": ["£{m}", "{m}", "£ {m}", "{m} A"],
    "date": lambda d, m, y: f"{d:02d}/{m:02d}/{y}",
    "time": lambda h, mi: f"{h:02d}:{mi:02d}",
    "head": ["Tel: 01{n3} {n6}", "VAT Reg No. GB {n3} {n4} {n2}", "Company No. {n8}"],
    "datetime": ["Date: {d}  Time: {t}", "{d} {t}", "Receipt {n4} – {d} {t}"],
    "subtotal": "Subtotal", "total": ["TOTAL", "Total to pay", "BALANCE DUE"],
    "tax": "VAT {r}% incl.", "rates": [20], "cash": "Cash", "change": "Change",
    "card": ["Contactless Visa", "Mastercard •••• {n4}"],
    "qty": "{q} @ £{m}", "weight": "{w} kg @ £{m}/kg",
    "foot": ["Thank you for shopping with us!", "Returns within 28 days with receipt", "Served by: Siân"],
}
LANGS = [("de", DE, 24), ("fr", FR, 18), ("es", ES, 9), ("gb", GB, 9)]


def digits(rng, n):
    return "".join(rng.choice("0123456789") for _ in range(n))


def fill(rng, s, **kw):
    for n in range(1, 10):
        while "{n%d}" % n in s:
            s = s.replace("{n%d}" % n, digits(rng, n), 1)
    return s.format(**kw)


def receipt(rng, L, sparse):
    name, street, city = rng.choice(L["shops"])
    money, price = L["money"], rng.choice(L["price"])
    rows = [[name], [street], [city], [fill(rng, rng.choice(L["head"]))]]
    d, m, year = rng.randint(1, 28), rng.randint(1, 12), rng.choice([2024, 2025, 2026])
    date, time = L["date"](d, m, year), L["time"](rng.randint(7, 21), rng.randint(0, 59))
    rows.append([fill(rng, rng.choice(L["datetime"]), d=date, t=time)])
    total = 0
    for _ in range(rng.randint(4, 14)):
        item = rng.choice(L["items"])
        kind = rng.random()
        detail = None
        if kind < 0.15:
            q, u = rng.randint(2, 6), rng.randint(49, 499)
            detail = fill(rng, L["qty"], q=q, m=money(u))
            c = q * u
        elif kind < 0.25:
            w, u = rng.randint(150, 2400), rng.randint(99, 1999)
            kilos = f"{w / 1000:.3f}" if L is GB else f"{w / 1000:.3f}".replace(".", ",")
            detail = fill(rng, L["weight"], w=kilos, m=money(u))
            c = round(w * u / 1000)
        else:
            c = rng.randint(49, 2999)
        total += c
        rows.append([item, price.format(m=money(c))])
        # (The count or weight under its item, as most tills print it.)
        if detail:
            rows.append(["  " + detail])
    rate = rng.choice(L["rates"])
    tax = round(total - total / (1 + rate / 100))
    if rng.random() < 0.5:
        rows.append([L["subtotal"], price.format(m=money(total))])
    rows.append([rng.choice(L["total"]), price.format(m=money(total))])
    rows.append([L["tax"].format(r=str(rate) if L is GB else str(rate).replace(".", ",")), money(tax)])
    if rng.random() < 0.5:
        given = (total // 500 + 1) * 500
        rows.append([L["cash"], price.format(m=money(given))])
        rows.append([L["change"], price.format(m=money(given - total))])
    else:
        rows.append([fill(rng, rng.choice(L["card"])), price.format(m=money(total))])
    for f in rng.sample(L["foot"], 2):
        rows.append([f])
    lines, y = [], 30
    for r in rows:
        if len(r) == 2 and sparse:
            a, b = r
            w1, w2 = 11 * len(a), 11 * len(b)
            lines.append(f"20,{y},{20 + w1},{y},{20 + w1},{y + 24},20,{y + 24},{a}")
            lines.append(f"{560 - w2},{y + 1},560,{y + 1},560,{y + 25},{560 - w2},{y + 25},{b}")
        else:
            t = "    ".join(r)
            w = 11 * len(t)
            lines.append(f"20,{y},{20 + w},{y},{20 + w},{y + 24},20,{y + 24},{t}")
        y += 34
    return lines, {"company": name, "date": f"{d:02d}/{m:02d}/{year}", "total": f"{total // 100}.{total % 100:02d}"}


def main():
    rng = random.Random(20261202)
    for sub in ("box", "key"):
        os.makedirs(os.path.join(OUT, sub), exist_ok=True)
    for lang, L, n in LANGS:
        for i in range(n):
            lines, key = receipt(rng, L, sparse=i % 2 == 1)
            rid = f"{lang}-{i + 1:02d}"
            with open(os.path.join(OUT, "box", rid + ".txt"), "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")
            with open(os.path.join(OUT, "key", rid + ".json"), "w", encoding="utf-8") as f:
                json.dump(key, f, ensure_ascii=False, sort_keys=True)
                f.write("\n")


if __name__ == "__main__":
    main()
