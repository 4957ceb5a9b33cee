package io.orderentry.testing;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Just enough of PromQL's lexer to name the metrics an expression reads: identifiers that are neither functions
 * (followed by a parenthesis), aggregations, keywords, label names (inside {@code {...}} or a grouping list such as
 * {@code by (job, le)}) nor parts of strings, ranges ({@code [5m]}), numbers or Grafana variables ({@code $job}).
 */
public final class PromQl {

    private static final Set<String> AGGREGATIONS = Set.of("sum", "min", "max", "avg", "group", "stddev", "stdvar",
            "count", "count_values", "bottomk", "topk", "quantile", "limitk", "limit_ratio");
    private static final Set<String> GROUPINGS = Set.of("by", "without", "on", "ignoring", "group_left",
            "group_right");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "atan2", "inf", "nan");

    private PromQl() {
    }

    /** @return the metric names {@code expression} reads, in the order they first appear */
    public static Set<String> metricNames(final String expression) {
        final Set<String> names = new LinkedHashSet<>();
        final String e = expression;
        int i = 0;
        boolean skipNextParenList = false;
        while (i < e.length()) {
            final char c = e.charAt(i);
            if (c == '"' || c == '\'' || c == '`') {
                i = afterString(e, i);
            } else if (c == '{') {
                i = after(e, i, '{', '}');
            } else if (c == '[') {
                i = after(e, i, '[', ']');
            } else if (c == '(' && skipNextParenList) {
                i = after(e, i, '(', ')');
                skipNextParenList = false;
            } else if (c == '$') {
                i++;
                while (i < e.length() && isNamePart(e.charAt(i))) {
                    i++;
                }
            } else if (Character.isDigit(c) || (c == '.' && i + 1 < e.length() && Character.isDigit(e.charAt(i + 1)))) {
                while (i < e.length() && (isNamePart(e.charAt(i)) || e.charAt(i) == '.'
                        || ((e.charAt(i) == '+' || e.charAt(i) == '-') && (e.charAt(i - 1) == 'e' || e.charAt(i - 1) == 'E')))) {
                    i++;
                }
            } else if (isNameStart(c)) {
                final int start = i;
                while (i < e.length() && isNamePart(e.charAt(i))) {
                    i++;
                }
                final String word = e.substring(start, i);
                final String lower = word.toLowerCase(java.util.Locale.ROOT);
                if (GROUPINGS.contains(lower)) {
                    skipNextParenList = true;
                } else if (!AGGREGATIONS.contains(lower) && !KEYWORDS.contains(lower) && !nextIsParen(e, i)) {
                    names.add(word);
                }
            } else {
                i++;
            }
        }
        return names;
    }

    private static boolean isNameStart(final char c) {
        return Character.isLetter(c) || c == '_' || c == ':';
    }

    private static boolean isNamePart(final char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == ':';
    }

    private static boolean nextIsParen(final String e, final int from) {
        int i = from;
        while (i < e.length() && Character.isWhitespace(e.charAt(i))) {
            i++;
        }
        return i < e.length() && e.charAt(i) == '(';
    }

    private static int afterString(final String e, final int open) {
        final char quote = e.charAt(open);
        int i = open + 1;
        while (i < e.length() && e.charAt(i) != quote) {
            i += e.charAt(i) == '\\' && quote != '`' ? 2 : 1;
        }
        return i + 1;
    }

    /** @return the index after the bracket that closes the one at {@code open}, skipping strings inside */
    private static int after(final String e, final int open, final char opening, final char closing) {
        int depth = 0;
        int i = open;
        while (i < e.length()) {
            final char c = e.charAt(i);
            if (c == '"' || c == '\'' || c == '`') {
                i = afterString(e, i);
                continue;
            }
            if (c == opening) {
                depth++;
            } else if (c == closing && --depth == 0) {
                return i + 1;
            }
            i++;
        }
        throw new IllegalArgumentException("unbalanced '" + opening + "' at " + open + " in " + e);
    }
}
