//! End-to-end tests: the real serenity/poise bot against the fake Discord
//! on 127.0.0.1, every request body validated against Discord's OpenAPI
//! schema. One test binary (linking is the slow part of a build).

mod approval;
mod common;
mod crash;
mod departures;
mod faces;
mod failure;
mod fc;
mod forget;
mod game_house_rules;
mod game_rules;
mod games;
mod logs;
mod multiprocess;
mod one_request;
mod ore;
mod ore_combat;
mod overload;
mod platform;
mod presentation;
mod robust;
mod roll;
mod secrecy;
mod shards;
mod sheets;
mod sheets_one_go;
mod sheets_travel;
mod shutdown;
mod skeleton;
mod steps;
mod storyteller;
mod undo;
mod upgrade;
mod venus;
mod venus_spotlight;
mod veracity;
mod veracity_combat;
mod words;
