/**
 * Skills on chat requests (spec 2.2 {@code skill}, {@code skills}; 2.11): what a skill's body does to a
 * canonical request, and the counting of uses. {@link dev.switchboard.engine.skills.SkillStack} is the ordered
 * set of skills that apply to one candidate model; {@link dev.switchboard.engine.skills.SkillText} puts their
 * system prompts first and runs their rewrite rules over the caller's text;
 * {@link dev.switchboard.engine.skills.SkillHintFill} fills the parameters the caller left unset;
 * {@link dev.switchboard.engine.skills.SkillUses} counts the uses of billed requests in batches;
 * {@link dev.switchboard.engine.skills.SkillPreview} shows what a sample conversation becomes. Which skills a
 * request names, and which the caller installed, is the pipeline's skills stage
 * ({@code pipeline.ResolveSkills}). Everything here but {@code SkillUses} is pure: no I/O, no clock.
 */
package dev.switchboard.engine.skills;
