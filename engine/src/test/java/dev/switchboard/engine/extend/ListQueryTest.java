package dev.switchboard.engine.extend;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The list contract's parameters: defaults, normalization and a 400 naming the parameter for anything out of range. */
class ListQueryTest {
    private static ListQuery parse(Map<String, String> params) {
        return ListQuery.parse(p -> Optional.ofNullable(params.get(p)));
    }

    private static String refused(Map<String, String> params) {
        return RefusalSupport.refusedParam(() -> parse(params), params);
    }

    @Test
    void defaults() {
        ListQuery q = parse(Map.of());
        assertThat(q.page()).isZero();
        assertThat(q.limit()).isEqualTo(30);
        assertThat(q.sort()).isEqualTo(Sort.POPULAR);
        assertThat(q.words()).isEmpty();
        assertThat(q.tags()).isEmpty();
        assertThat(parse(Map.of("page", "", "limit", " "))).isEqualTo(q);
    }

    @Test
    void searchWordsAndTagsAreNormalized() {
        ListQuery q = parse(Map.of("search", "  Code   REVIEW code ", "tags", "SQL, ,Data  Science,sql", "limit", "100",
                "page", "3", "sort", "recent", "section", " Coding-Tools "));
        assertThat(q.words()).containsExactly("code", "review");
        assertThat(q.tags()).containsExactly("sql", "data science");
        assertThat(q.limit()).isEqualTo(100);
        assertThat(q.page()).isEqualTo(3);
        assertThat(q.sort()).isEqualTo(Sort.RECENT);
        assertThat(q.section()).contains("coding-tools");
    }

    @Test
    void outOfRangeValuesNameTheParameter() {
        for (String limit : new String[] {"0", "101", "-1", "abc", "1e2", "99999999999"}) {
            assertThat(refused(Map.of("limit", limit))).as(limit).isEqualTo("limit");
        }
        for (String page : new String[] {"-1", "x", "100001"}) {
            assertThat(refused(Map.of("page", page))).as(page).isEqualTo("page");
        }
        assertThat(refused(Map.of("sort", "hot"))).isEqualTo("sort");
        assertThat(refused(Map.of("search", "x".repeat(201)))).isEqualTo("search");
        assertThat(refused(Map.of("search", "a b c d e f g h i"))).isEqualTo("search");
        assertThat(refused(Map.of("tags", "t".repeat(33)))).isEqualTo("tags");
        assertThat(refused(Map.of("tags", "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u"))).isEqualTo("tags");
    }
}
