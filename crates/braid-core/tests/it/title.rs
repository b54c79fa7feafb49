//! A conversation's title: asked for after the first exchange, read from
//! the model's reply, or made from the question's first words.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::llm::LlmResponse;
use braid_core::machine::Event;
use braid_core::sim::Sim;
use braid_core::title;

#[test]
fn a_title_is_asked_for_once_the_first_question_has_an_answer() {
    let mut sim = Sim::new();
    assert_eq!(title::input(&sim.conversation), None);
    sim.start("Which cache should the API use?");
    assert_eq!(title::input(&sim.conversation), None, "no answer yet");
    let rid = sim.request_id();
    sim.send(Event::LlmCompleted { request_id: rid, response: LlmResponse::text("Redis: 3 ms at p99.") });
    let input = title::input(&sim.conversation).unwrap();
    assert_eq!(input, "User: Which cache should the API use?\n\nAssistant: Redis: 3 ms at p99.");
    assert_eq!(title::first_question(&sim.conversation).as_deref(), Some("Which cache should the API use?"));
}

#[test]
fn the_reply_is_read_as_a_title() {
    assert_eq!(title::from_reply("\"Choosing an API cache.\"").as_deref(), Some("Choosing an API cache"));
    assert_eq!(title::from_reply("\n  Title: Redis vs Memcached\nmore").as_deref(), Some("Redis vs Memcached"));
    assert_eq!(title::from_reply("**Кэш для API**").as_deref(), Some("Кэш для API"));
    assert_eq!(title::from_reply("  \n \"\" "), None);
    assert_eq!(title::from_reply(&"word ".repeat(40)), None, "forty words are an answer, not a title");
    let seven = title::from_reply("Choosing a cache for the public API quickly").unwrap();
    assert_eq!(seven, "Choosing a cache for the public", "at most six words");
    let long =
        title::from_reply("Supercalifragilisticexpialidocious-extraordinarily-long-hyphenated-compound-title").unwrap();
    assert!(long.chars().count() <= title::MAX_CHARS + 1 && long.ends_with('…'), "{long}");
}

#[test]
fn an_answer_sentence_is_not_taken_for_a_title() {
    for reply in [
        "I'm excited to continue exploring this with you!",
        "Sure, here is a title",
        "Here's a short title",
        "Hello! How can I help you today?",
        "As an AI, I cannot",
        "Greetings. I will help you now",
        "You are unsure. Please clarify",
    ] {
        assert_eq!(title::from_reply(reply), None, "{reply}");
    }
    for reply in
        ["Saying hello", "Redis vs Memcached for the API", "Dragons and lighthouses", "Intro to Rust lifetimes"]
    {
        assert!(title::from_reply(reply).is_some(), "{reply}");
    }
}

#[test]
fn without_a_reply_the_question_s_first_words_are_the_title() {
    assert_eq!(title::from_question("  Which   cache\nshould we use? "), "Which cache should we use?");
    let t =
        title::from_question("Please explain how the borrow checker decides when a reference may outlive its owner");
    assert_eq!(t, "Please explain how the borrow checker decides…");
    assert_eq!(title::from_question("   "), title::DEFAULT_TITLE);
    // Cut after a whole word in any script, counted in characters.
    let ru = title::from_question(
        "Объясните, пожалуйста, как проверка заимствований решает, когда ссылка переживёт владельца",
    );
    assert!(ru.ends_with('…') && ru.chars().count() <= 49, "{ru}");
    assert!(ru.starts_with("Объясните, пожалуйста, как проверка") && !ru.contains("  "), "{ru}");
}
