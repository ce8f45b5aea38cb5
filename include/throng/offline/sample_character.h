// The built-in sample character: a procedurally generated, skinned and animated humanoid.
#pragma once

#include <cstdint>

#include "throng/core/character.h"

namespace throng {

// Clips of the sample character, in this order: "idle" (3 s loop), "walk" (1 s loop),
// "run" (0.6 s loop), "attack" (1.3 s one-shot punch) and "die" (2 s one-shot fall).
inline constexpr const char* kSampleClipNames[] = {"idle", "walk", "run", "attack", "die"};

// The walk and run clips are in place (the crowd moves its agents; a looping baked clip with
// root motion would jump back at every loop). Moving an agent at these speeds (model units per
// second) keeps the planted foot from sliding.
inline constexpr float kSampleWalkSpeed = 1.0f;
inline constexpr float kSampleRunSpeed = 2.381f;

// A deterministic humanoid built entirely by throng's own code (no downloaded art): 23 joints
// ("root" on the ground, "hips", "spine_01".."spine_03", "neck", "head", "clavicle.L",
// "upper_arm.L", "lower_arm.L", "hand.L", "upper_leg.L", "lower_leg.L", "foot.L", "toes.L", and
// the same ".R"), Y up, about 1.8 units tall, standing on y = 0, facing +Z (its left is +X), in
// an A pose with identity rest rotations (rest == bind). The mesh is made of closed, smooth
// swept surfaces (one per body part, none sharing vertices) of about 6,000 vertices in three
// sub-meshes ("clothes", "skin", "shoes"; each with the material of that name: blue, skin tone,
// dark brown base colours), 1-4 influences per vertex. Clips: kSampleClipNames,
// LINEAR keys sampled at 30 Hz from procedural curves. Never fails; every call returns the same
// character.
Character makeSampleCharacter();

// Side of the PBR sample's square images (pixels): fine enough for the relief to read at the
// sizes a crowd member is drawn, small enough that bakes and the written file stay quick. The
// emissive image is kSamplePbrEmissiveWidth x kSamplePbrTextureSize (its glow is a band along v).
inline constexpr uint32_t kSamplePbrTextureSize = 256;
inline constexpr uint32_t kSamplePbrEmissiveWidth = 16;

// makeSampleCharacter with a glTF metallic-roughness look made by throng's own code (no
// downloaded art; deterministic), to show normal, metallic-roughness, occlusion and emissive
// textures. Each part's uvs run around it (u) and along it (v: torso from the crotch up, arms
// and legs from the body out, shoes from heel to toe), and the parts of a material share its
// images:
//   "clothes": a quilted (puffer) look: padded channels across v with dark seams between them
//     (normal + occlusion), rough (0.9) dielectric cloth; a brushed-metal band (a belt on the
//     torso, bands on the upper arms and thighs: metallic 1, roughness 0.3, brass base colour)
//     and a glowing cyan piping at the collar, cuffs and hems (emissive texture x factor);
//     the base colour is a texture (sRGB) with a white factor.
//   "skin": fine bumps (normal scale 0.5, slightly darker occlusion in the dips), roughness 0.55.
//   "shoes": treads across the shoe and a stitched welt, smoother (roughness 0.35) leather with
//     rougher, darker grooves.
// Every image is its own (one slot each): base colour and emissive sRGB, the others linear.
// Tangents are generated (generateTangents, MikkTSpace rules; vertices may be split), as an
// importer does for a file without TANGENT: `throng sample --pbr` writes it without them
// (GltfExportOptions::tangents).
Character makeSamplePbrCharacter();

// Joints of the benchmark humanoid: the sample's 23, plus per side 15 finger phalanges ("thumb",
// "index", "middle", "ring", "pinky" _01.._03), 4 twist joints ("upper_arm_twist",
// "lower_arm_twist", "upper_leg_twist", "lower_leg_twist"), and "jaw", "eye.L", "eye.R" and the
// IK joints of game rigs ("ik_foot_root", "ik_foot.L/.R", "ik_hand_root", "ik_hand_gun",
// "ik_hand.L/.R").
inline constexpr int kBenchmarkHumanoidJoints = 71;

// A game-typical rig for benchmarks: kBenchmarkHumanoidJoints joints (fingers, twist, face and
// IK joints included) over the sample character's mesh (the extra joints drive no vertices, as
// helper and IK joints of exported rigs), with the sample's five clips where EVERY channel
// (translation, rotation and scale of every joint) is a LINEAR track keyed at the sample's 30 Hz
// key times, as exporters write clips: the 23 sample joints move as in the sample, fingers curl
// (a fist for the punch), twist joints take a share of their parent's twist, the jaw and eyes
// move, IK joints carry the feet's and hands' model transforms. Never fails; deterministic.
Character makeBenchmarkHumanoid();

}  // namespace throng
