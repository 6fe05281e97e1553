package dev.rayscale.sim;

import io.fabric8.mockwebserver.http.MockResponse;
import java.net.HttpURLConnection;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Lists served in pages, as a real API server serves a list with {@code limit} ("Retrieving large results sets in
 * chunks" in Kubernetes' API concepts): at most {@code limit} items, in the order of their storage keys (namespace,
 * then name), with a {@code continue} token while more remain. Every page of one list comes from the state when its
 * first page was read, with that state's resourceVersion, so that a client (an informer) can take a large collection
 * page by page without holding it whole, and then watch from that version. fabric8's mock ignores {@code limit} and
 * answers every list whole. A token this server no longer knows is answered 410 Gone, as an expired one is.
 */
final class ListPages {

    /** Lists being paged at once; the oldest is forgotten first (a client that stopped half-way). */
    private static final int OPEN_LISTS = 64;

    /** A list request that asks for pages: its path without {@code limit} and {@code continue}, and those two. */
    record Request(String path, int limit, String token) {

        /** The request, or null if the path does not ask for a page. */
        static Request of(String path) {
            int query = path.indexOf('?');
            if (query < 0) {
                return null;
            }
            List<String> kept = new ArrayList<>();
            int limit = 0;
            String token = null;
            for (String parameter : path.substring(query + 1).split("&")) {
                if (parameter.startsWith("limit=")) {
                    limit = Integer.parseInt(parameter.substring("limit=".length()));
                } else if (parameter.startsWith("continue=")) {
                    token = URLDecoder.decode(parameter.substring("continue=".length()), StandardCharsets.UTF_8);
                } else {
                    kept.add(parameter);
                }
            }
            if (limit <= 0) {
                return null;
            }
            return new Request(path.substring(0, query) + (kept.isEmpty() ? "" : "?" + String.join("&", kept)), limit, token);
        }
    }

    /** The items of one list still to be served, and the resourceVersion of the state they were read from. */
    private record Rest(List<String> items, String resourceVersion) {
    }

    private final Map<String, Rest> open = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Rest> eldest) {
            return size() > OPEN_LISTS;
        }
    };

    /** The first page of a list, from its items already in key order. */
    synchronized MockResponse first(Request request, List<String> items, String resourceVersion) {
        return page(request.limit(), new Rest(items, resourceVersion));
    }

    /** A later page, by the token the one before gave. */
    synchronized MockResponse next(Request request) {
        Rest rest = open.remove(request.token());
        if (rest == null) {
            return new MockResponse().setResponseCode(HttpURLConnection.HTTP_GONE).setBody("{\"apiVersion\":\"v1\",\"kind\":\"Status\","
                    + "\"status\":\"Failure\",\"reason\":\"Expired\",\"code\":410,\"message\":\"The provided continue parameter is too old "
                    + "to display a consistent list result. You can start a new list without the continue parameter.\"}");
        }
        return page(request.limit(), rest);
    }

    private MockResponse page(int limit, Rest rest) {
        List<String> items = rest.items();
        String token = null;
        if (items.size() > limit) {
            token = UUID.randomUUID().toString();
            open.put(token, new Rest(items.subList(limit, items.size()), rest.resourceVersion()));
            items = items.subList(0, limit);
        }
        String body = "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[" + String.join(",", items) + "],\"metadata\":{\"resourceVersion\":\""
                + rest.resourceVersion() + "\"" + (token == null ? "" : ",\"continue\":\"" + token + "\"") + "}}";
        return new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK).setBody(body);
    }
}
