/**
 * The public catalog ("Extend", spec 2.11 and 4): skills, MCP server entries, marketplaces, character cards and
 * plugins, with their list contract, ownership and visibility rules, community counts, operator curation and
 * seeds. Called "extend" so it never collides with the model catalog ({@code engine.catalog}).
 *
 * <p>Services: {@link dev.switchboard.engine.extend.SkillService} (users' skills, and the
 * {@link dev.switchboard.engine.extend.SkillLookup} the chat pipeline uses),
 * {@link dev.switchboard.engine.extend.CatalogService} (public reads, likes, interactions) and
 * {@link dev.switchboard.engine.extend.Curation} (the operator). Ports:
 * {@link dev.switchboard.engine.extend.CatalogStore} and {@link dev.switchboard.engine.extend.SkillStore}.
 * Every refusal is a {@code GatewayException} carrying the spec's error (400 naming the field, 403, 404, 409, 413).
 */
package dev.switchboard.engine.extend;
