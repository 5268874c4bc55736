#include "libs/egraph/hashcons_table.h"

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace tessel::egraph {
namespace {

// Keys stand for e-nodes: the table stores ids, and `keys[id]` is the key
// of id. Hashes are the key itself or a few of its bits, so that tests can
// force equal tags and long probe runs that wrap around the table's end.
struct Keys {
  std::vector<uint64_t> of;  // by id
  auto EqualTo(uint64_t key) const {
    return [this, key](NodeId id) { return of[id] == key; };
  }
};

TEST(HashconsTableTest, FindsWhatItStores) {
  HashconsTable table;
  Keys keys;
  EXPECT_EQ(table.Find(7, keys.EqualTo(7)), std::nullopt);
  for (uint64_t key = 0; key < 1000; ++key) {
    keys.of.push_back(key * 3);
    EXPECT_EQ(table.FindOrInsert(key * 3, key, keys.EqualTo(key * 3)),
              std::nullopt);
  }
  EXPECT_EQ(table.size(), 1000u);
  for (uint64_t key = 0; key < 1000; ++key) {
    EXPECT_EQ(table.Find(key * 3, keys.EqualTo(key * 3)), key);
    // A second insert of an equal key finds the first.
    EXPECT_EQ(table.FindOrInsert(key * 3, 5000, keys.EqualTo(key * 3)), key);
    EXPECT_EQ(table.Find(key * 3 + 1, keys.EqualTo(key * 3 + 1)), std::nullopt);
  }
  EXPECT_EQ(table.size(), 1000u);
}

TEST(HashconsTableTest, EqualHashesAreToldApartByTheirKeys) {
  HashconsTable table;
  Keys keys;
  for (NodeId id = 0; id < 40; ++id) {
    keys.of.push_back(100 + id);
    EXPECT_EQ(table.FindOrInsert(42, id, keys.EqualTo(100 + id)), std::nullopt);
  }
  for (NodeId id = 0; id < 40; ++id) {
    EXPECT_EQ(table.Find(42, keys.EqualTo(100 + id)), id);
  }
  EXPECT_TRUE(table.Erase(42, 17));
  EXPECT_FALSE(table.Erase(42, 17));
  EXPECT_EQ(table.Find(42, keys.EqualTo(117)), std::nullopt);
  for (NodeId id = 0; id < 40; ++id) {
    if (id == 17) continue;
    EXPECT_EQ(table.Find(42, keys.EqualTo(100 + id)), id);
  }
}

// Random inserts and erases against std::map, with hashes of few distinct
// values near the top of the table, so that runs are long, wrap around and
// are cut by backward-shift deletions at every position.
TEST(HashconsTableTest, AgreesWithAMapUnderRandomInsertsAndErases) {
  for (uint64_t hash_bits : {3, 6, 32}) {
    std::mt19937_64 random(hash_bits);
    HashconsTable table;
    Keys keys;
    std::map<uint64_t, NodeId> model;  // key -> id
    auto hash_of = [&](uint64_t key) {
      return ~uint64_t{0} - (key & ((uint64_t{1} << hash_bits) - 1));
    };
    for (int step = 0; step < 20000; ++step) {
      const uint64_t key = random() % 600;
      if (random() % 3 == 0) {
        auto it = model.find(key);
        EXPECT_EQ(
            table.Erase(hash_of(key), it == model.end() ? NodeId(keys.of.size())
                                                        : it->second),
            it != model.end());
        if (it != model.end()) model.erase(it);
      } else {
        const NodeId id = keys.of.size();
        keys.of.push_back(key);
        std::optional<NodeId> found =
            table.FindOrInsert(hash_of(key), id, keys.EqualTo(key));
        auto it = model.find(key);
        if (it == model.end()) {
          EXPECT_EQ(found, std::nullopt);
          model[key] = id;
        } else {
          EXPECT_EQ(found, it->second);
        }
      }
      ASSERT_EQ(table.size(), model.size());
    }
    for (uint64_t key = 0; key < 600; ++key) {
      auto it = model.find(key);
      std::optional<NodeId> expected;
      if (it != model.end()) expected = it->second;
      EXPECT_EQ(table.Find(hash_of(key), keys.EqualTo(key)), expected)
          << "key " << key << " with " << hash_bits << " hash bits";
    }
  }
}

}  // namespace
}  // namespace tessel::egraph
