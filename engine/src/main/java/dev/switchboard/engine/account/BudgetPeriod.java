package dev.switchboard.engine.account;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAdjusters;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * How often a key's spend budget starts again, in UTC: every day at 00:00, every week on Monday 00:00, every
 * month on the 1st at 00:00, or never ({@link #TOTAL}: the budget covers the key's whole life).
 */
public enum BudgetPeriod {
    DAILY, WEEKLY, MONTHLY, TOTAL;

    /** The name in the admin API, the CLI and the database: {@code daily}, {@code weekly}, {@code monthly}, {@code total}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The period named {@code text} (any case).
     *
     * @throws AccountException INVALID("budget_period") for any other word
     */
    public static BudgetPeriod parse(String text) {
        String t = text.strip().toUpperCase(Locale.ROOT);
        return Arrays.stream(values()).filter(p -> p.name().equals(t)).findFirst()
                .orElseThrow(() -> AccountException.invalid("budget_period",
                        "budget_period: expected daily, weekly, monthly or total, got \"" + text.strip() + "\""));
    }

    /** When the period that contains {@code now} began; {@link Instant#EPOCH} for {@link #TOTAL}. */
    public Instant start(Instant now) {
        LocalDate day = LocalDate.ofInstant(now, ZoneOffset.UTC);
        LocalDate first = switch (this) {
            case DAILY -> day;
            case WEEKLY -> day.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
            case MONTHLY -> day.withDayOfMonth(1);
            case TOTAL -> LocalDate.ofEpochDay(0);
        };
        return first.atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    /** When the period that contains {@code now} ends and the budget is whole again; empty for {@link #TOTAL}. */
    public Optional<Instant> end(Instant now) {
        LocalDate start = LocalDate.ofInstant(start(now), ZoneOffset.UTC);
        LocalDate next = switch (this) {
            case DAILY -> start.plusDays(1);
            case WEEKLY -> start.plusWeeks(1);
            case MONTHLY -> start.plusMonths(1);
            case TOTAL -> null;
        };
        return Optional.ofNullable(next).map(d -> d.atStartOfDay(ZoneOffset.UTC).toInstant());
    }
}
