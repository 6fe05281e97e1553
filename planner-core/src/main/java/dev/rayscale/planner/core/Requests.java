package dev.rayscale.planner.core;

import dev.rayscale.events.LabelSelector;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ShapeCount;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Builds request lists: equal shapes merged, in Ray's scheduling order. */
final class Requests {

    private static final Comparator<Request> ORDER = Comparator
            .comparing((Request request) -> request.shape, Shape.RAY_ORDER)
            .thenComparing(request -> Objects.toString(request.selector, ""));

    private record Key(List<Long> amounts, LabelSelector selector) {
    }

    private final Plan plan;
    private final Map<Key, Request> merged = new LinkedHashMap<>();
    private final int spreadGang;

    Requests(Plan plan, int spreadGang) {
        this.plan = plan;
        this.spreadGang = spreadGang;
    }

    Requests add(Resources shape, long count, LabelSelector selector) {
        long[] amounts = plan.index.vector(shape);
        Key key = new Key(Arrays.stream(amounts).boxed().toList(), selector);
        Request existing = merged.get(key);
        if (existing != null) {
            existing.count += count;
        } else {
            merged.put(key, new Request(new Shape(amounts, plan.index), count, selector, spreadGang));
        }
        return this;
    }

    List<Request> sorted() {
        List<Request> requests = new ArrayList<>(merged.values());
        requests.sort(ORDER);
        return requests;
    }

    static List<Request> of(Plan plan, List<ShapeCount> bundles) {
        Requests requests = new Requests(plan, -1);
        bundles.forEach(bundle -> requests.add(bundle.shape(), bundle.count(), null));
        return requests.sorted();
    }

    /** The same requests with their remaining counts, free of any spread rule. */
    static List<Request> unspread(List<Request> requests) {
        List<Request> free = new ArrayList<>();
        for (Request request : requests) {
            if (request.count > 0) {
                free.add(new Request(request.shape, request.count, request.selector, -1));
            }
        }
        return free;
    }

    /** Moves what {@code free} placed back onto the counts of {@code original}, request by request. */
    static void settle(List<Request> original, List<Request> free) {
        int next = 0;
        for (Request request : original) {
            if (request.count > 0) {
                request.count = free.get(next++).count;
            }
        }
    }
}
