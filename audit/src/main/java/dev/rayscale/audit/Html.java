package dev.rayscale.audit;

/** HTML text helpers for the reports. */
public final class Html {

    private Html() {
    }

    public static String escape(String text) {
        return text == null ? "" : text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** A table row of a name and a value. */
    public static String row(String name, Object value) {
        return "<tr><td>" + escape(name) + "</td><td>" + escape(String.valueOf(value)) + "</td></tr>";
    }

    /** The page around a body, with the reports' common style. */
    public static String page(String title, String body) {
        return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + escape(title) + "</title>"
                + "<style>body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse}"
                + "td,th{border:1px solid #ccc;padding:4px 8px;font-size:13px;vertical-align:top}</style></head><body>"
                + body + "</body></html>\n";
    }
}
